import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import { ExpiringCache } from '../../pipeline/expiring-cache';
import { HopPipeline } from '../../pipeline/hop-pipeline';
import { OpenedCredentials } from '../../pipeline/opened-credentials';
import { readBodyWithin } from '../../pipeline/upstream-body';
import { JsonRpcMessage } from '../json-rpc';
import { McpCall, hopOf } from '../mcp-call';
import { MAX_UPSTREAM_MESSAGE_BYTES, McpUpstream, UpstreamAnswer } from '../mcp-upstream';
import { upstreamCredentialOf } from '../upstream-credential-of';
import { parseEventStream } from './upstream-events';
import {
  LEGACY_REVISION,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  MODERN_REVISION,
  isModernRevision,
  modernHeadersOf,
  objectOr,
} from './revision-wire';

/** What a server speaks, as the relay learnt it (T98). */
export interface ServerEras {
  modern: boolean;
  legacy: boolean;
}

/** T98: a server is asked again after this long (it may have been upgraded). */
const ERAS_TTL_MS = 5 * 60_000;
const PROBE_CLIENT = { name: 'agp-relay', version: '1.0.0' };

/**
 * T98: the relay learns each server's revisions the way the specification's backward
 * compatibility section says a client does: `server/discover` first, `initialize` after.
 * Per replica and cached; two replicas that both ask learn the same.
 */
@Injectable()
export class McpServerEras {
  private readonly cache = new ExpiringCache<ServerEras>(ERAS_TTL_MS);

  constructor(
    private readonly upstream: McpUpstream,
    private readonly credentials: OpenedCredentials,
    private readonly pipeline: HopPipeline,
  ) {}

  of(call: McpCall): Promise<ServerEras> {
    const server = call.route.server;
    return this.cache.get(`${server.id}:${server.url}`, () => this.probe(call));
  }

  /** Sends one message to the server as the relay (no agent headers), with `headers` added. */
  async send(
    call: McpCall,
    method: 'POST' | 'GET' | 'DELETE',
    headers: Record<string, string>,
    body?: JsonRpcMessage,
    options: {
      signal?: AbortSignal;
      isListening?: boolean;
      /** payments.md PY19: a judged payment's own header, on the paid request only. */
      payment?: { header: string; value: string };
    } = {},
  ): Promise<UpstreamAnswer> {
    const credential = upstreamCredentialOf(this.credentials, call.route.server);
    return this.upstream.send({
      server: call.route.server,
      method,
      agentHeaders: {},
      headers,
      correlationId: call.correlationId,
      trace: call.trace,
      signal: options.signal ?? AbortSignal.timeout(call.route.server.timeoutMs),
      ...(body ? { body: JSON.stringify(body) } : {}),
      ...(options.isListening ? { isListening: true } : {}),
      ...(options.payment ? { payment: options.payment } : {}),
      ...(credential ? { credential } : {}),
    });
  }

  private async probe(call: McpCall): Promise<ServerEras> {
    const modern = await this.answersDiscover(call);
    return { modern, legacy: await this.answersInitialize(call) };
  }

  private async answersDiscover(call: McpCall): Promise<boolean> {
    const discover: JsonRpcMessage = {
      jsonrpc: '2.0',
      id: `agp-probe-${randomUUID()}`,
      method: 'server/discover',
      params: {
        _meta: {
          [META_PROTOCOL_VERSION]: MODERN_REVISION,
          [META_CLIENT_INFO]: PROBE_CLIENT,
          [META_CLIENT_CAPABILITIES]: {},
        },
      },
    };
    try {
      await this.audited(call, 'REQUEST', discover);
      const answer = await this.send(call, 'POST', modernHeadersOf(discover), discover);
      const message = await readAnswer(answer);
      await this.audited(call, 'RESPONSE', message ?? httpOnly(answer), discover);
      const versions = objectOr(message?.result).supportedVersions;
      return Array.isArray(versions) && versions.some(isModernRevision);
    } catch {
      return false;
    }
  }

  private async answersInitialize(call: McpCall): Promise<boolean> {
    const initialize: JsonRpcMessage = {
      jsonrpc: '2.0',
      id: `agp-probe-${randomUUID()}`,
      method: 'initialize',
      params: { protocolVersion: LEGACY_REVISION, capabilities: {}, clientInfo: PROBE_CLIENT },
    };
    try {
      await this.audited(call, 'REQUEST', initialize);
      const answer = await this.send(call, 'POST', {}, initialize);
      const session = answer.headers['mcp-session-id'];
      const message = await readAnswer(answer);
      await this.audited(call, 'RESPONSE', message ?? httpOnly(answer), initialize);
      if (typeof session === 'string') {
        await this.send(call, 'DELETE', { 'mcp-session-id': session })
          .then((a) => a.body.dump())
          .catch(() => undefined);
      }
      const version = objectOr(message?.result).protocolVersion;
      return typeof version === 'string' && !isModernRevision(version);
    } catch {
      return false;
    }
  }

  /**
   * T103: a probe and its answer are hops of the platform's own, so a tenant sees what the
   * platform sent its server. One that cannot be recorded does not stop the probe.
   */
  private async audited(
    call: McpCall,
    direction: 'REQUEST' | 'RESPONSE',
    message: JsonRpcMessage,
    probe?: JsonRpcMessage,
  ): Promise<void> {
    const hop = hopOf(
      { ...call, agentHeaders: {} },
      direction,
      message,
      probe ? { method: probe.method! } : undefined,
    );
    const why = `the relay learns which MCP revisions ${call.route.server.name} speaks`;
    await this.pipeline.recordPlatformHop(hop, why).catch(() => undefined);
  }
}

/** What a probe's answer said when it was no JSON-RPC message (a 2025 server's 400, say). */
function httpOnly(answer: UpstreamAnswer): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32000, message: `HTTP ${answer.statusCode}` },
  };
}

/** The one JSON-RPC message of an answer, JSON or SSE (the first that is a response). */
export async function readAnswer(answer: UpstreamAnswer): Promise<JsonRpcMessage | undefined> {
  const type = String(answer.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('text/event-stream')) {
    for await (const message of parseEventStream(answer.body)) {
      if (message.method === undefined) {
        return message;
      }
    }
    return undefined;
  }
  const text = await readBodyWithin(
    answer,
    MAX_UPSTREAM_MESSAGE_BYTES,
    () => new Error('too large'),
  );
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as JsonRpcMessage)
      : undefined;
  } catch {
    return undefined;
  }
}
