import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { createParser } from 'eventsource-parser';

import { RELAY_DATABASE } from '../../../database/tokens';
import { OpenedCredentials } from '../../pipeline/opened-credentials';
import { McpServerRoute } from '../../pipeline/traffic-directory';
import { readBodyWithin } from '../../pipeline/upstream-body';
import { JsonRpcMessage, invalidMessage, kindOf, rpcError } from '../json-rpc';
import {
  MAX_UPSTREAM_MESSAGE_BYTES,
  McpUpstream,
  UpstreamAnswer,
  UpstreamFailure,
  failureOf,
  serverLabel,
} from '../mcp-upstream';
import { upstreamCredentialOf } from '../upstream-credential-of';
import {
  MemberSession,
  MemberSessionKey,
  MemberSessionsRepository,
} from './member-sessions.repository';

/** The revision the relay asks a member for; the member's answer says which it speaks. */
export const MEMBER_PROTOCOL_VERSION = '2025-11-25';

/** RPC_METHOD_NOT_FOUND: what a member's own request to the relay is answered (T78). */
const METHOD_NOT_FOUND = -32601;

export interface MemberContext {
  key: MemberSessionKey;
  server: McpServerRoute;
  correlationId: string;
  signal?: AbortSignal;
}

/** A member answered 404 to its session: it ended it (restart, expiry), so the relay opens one. */
class SessionLost extends Error {}

/**
 * traffic.md T77: the relay is the MCP client of each member of a virtual server, one member
 * session per client session, kept in the database so any replica carries the next request.
 */
@Injectable()
export class VirtualMemberClient {
  private readonly sessions = new MemberSessionsRepository();

  constructor(
    private readonly upstream: McpUpstream,
    private readonly credentials: OpenedCredentials,
    @Inject(RELAY_DATABASE) private readonly database: Database,
  ) {}

  /** The member's response to one request; a lost session is opened again once. */
  async request(context: MemberContext, message: JsonRpcMessage): Promise<JsonRpcMessage> {
    const stored = await this.database.inTenant(context.key.tenantId, (tx) =>
      this.sessions.find(tx, context.key),
    );
    let session = stored ?? (await this.open(context));
    try {
      return await this.exchange(context, session, message);
    } catch (error) {
      if (!(error instanceof SessionLost)) {
        throw error;
      }
      session = await this.open(context);
      return this.exchange(context, session, message);
    }
  }

  /** DELETE of every member session of one client session; a member that fails is let be. */
  async endAll(
    contextOf: (memberServerId: string) => MemberContext | undefined,
    key: Omit<MemberSessionKey, 'memberServerId'>,
  ): Promise<void> {
    const ended = await this.database.inTenant(key.tenantId, (tx) =>
      this.sessions.takeAll(tx, key),
    );
    await Promise.all(
      ended.map(async (session) => {
        const context = contextOf(session.memberServerId);
        if (!context || session.memberSessionId === undefined) {
          return;
        }
        const answer = await this.send(context, session, 'DELETE').catch(() => undefined);
        await answer?.body.dump();
      }),
    );
  }

  private async open(context: MemberContext): Promise<MemberSession> {
    const initialize: JsonRpcMessage = {
      jsonrpc: '2.0',
      id: `agp-${randomUUID()}`,
      method: 'initialize',
      params: {
        protocolVersion: MEMBER_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'agp-relay', version: '1.0.0' },
      },
    };
    const answer = await this.send(context, undefined, 'POST', initialize);
    const sessionId = answer.headers['mcp-session-id'];
    const response = await this.responseOf(context, answer, initialize.id, undefined);
    const result = response.result as { protocolVersion?: unknown } | undefined;
    if (!result || response.error) {
      const why = JSON.stringify(response.error ?? response.result);
      throw new UpstreamFailure(502, `${serverLabel(context.server)} refused initialize: ${why}`);
    }
    const session: MemberSession = {
      ...(typeof sessionId === 'string' ? { memberSessionId: sessionId } : {}),
      protocolVersion:
        typeof result.protocolVersion === 'string'
          ? result.protocolVersion
          : MEMBER_PROTOCOL_VERSION,
    };
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' } as const;
    await (await this.send(context, session, 'POST', initialized)).body.dump();
    await this.database.inTenant(context.key.tenantId, (tx) =>
      this.sessions.save(tx, context.key, session),
    );
    return session;
  }

  private async exchange(
    context: MemberContext,
    session: MemberSession,
    message: JsonRpcMessage,
  ): Promise<JsonRpcMessage> {
    const answer = await this.send(context, session, 'POST', message);
    if (answer.statusCode === 404 && session.memberSessionId !== undefined) {
      await answer.body.dump();
      throw new SessionLost();
    }
    return this.responseOf(context, answer, message.id, session);
  }

  private async send(
    context: MemberContext,
    session: MemberSession | undefined,
    method: 'POST' | 'DELETE',
    message?: JsonRpcMessage,
  ): Promise<UpstreamAnswer> {
    const headers: Record<string, string> = {};
    if (session?.memberSessionId !== undefined) {
      headers['mcp-session-id'] = session.memberSessionId;
    }
    if (session) {
      headers['mcp-protocol-version'] = session.protocolVersion;
    }
    const credential = upstreamCredentialOf(this.credentials, context.server);
    return this.upstream.send({
      server: context.server,
      method,
      agentHeaders: headers,
      correlationId: context.correlationId,
      signal: context.signal ?? new AbortController().signal,
      ...(credential ? { credential } : {}),
      ...(message ? { body: JSON.stringify(message) } : {}),
    });
  }

  /** The response to `id` in a JSON body or an SSE stream; what else the member sends is let go. */
  private async responseOf(
    context: MemberContext,
    answer: UpstreamAnswer,
    id: JsonRpcMessage['id'],
    session: MemberSession | undefined,
  ): Promise<JsonRpcMessage> {
    const label = serverLabel(context.server);
    const type = String(answer.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    if (answer.statusCode >= 300 || (type !== 'application/json' && type !== 'text/event-stream')) {
      await answer.body.dump();
      throw new UpstreamFailure(
        502,
        `${label} answered HTTP ${answer.statusCode} without a JSON-RPC message`,
      );
    }
    try {
      const found =
        type === 'application/json'
          ? await this.fromJson(answer, id)
          : await this.fromStream(context, answer, id, session);
      if (!found) {
        throw new UpstreamFailure(
          502,
          `${label} ended its answer without a response to the request`,
        );
      }
      return found;
    } catch (error) {
      throw failureOf(error, context.server);
    }
  }

  private async fromJson(
    answer: UpstreamAnswer,
    id: JsonRpcMessage['id'],
  ): Promise<JsonRpcMessage | undefined> {
    const text = await readBodyWithin(
      answer,
      MAX_UPSTREAM_MESSAGE_BYTES,
      () => new UpstreamFailure(502, `an answer larger than ${MAX_UPSTREAM_MESSAGE_BYTES} bytes`),
    );
    const value = JSON.parse(text) as unknown;
    return responseAmong(Array.isArray(value) ? value : [value], id);
  }

  private async fromStream(
    context: MemberContext,
    answer: UpstreamAnswer,
    id: JsonRpcMessage['id'],
    session: MemberSession | undefined,
  ): Promise<JsonRpcMessage | undefined> {
    const events: string[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event.data) });
    const decoder = new TextDecoder();
    for await (const chunk of answer.body) {
      parser.feed(
        typeof chunk === 'string' ? chunk : decoder.decode(chunk as Buffer, { stream: true }),
      );
      for (const data of events.splice(0)) {
        const message = data.trim() ? (JSON.parse(data) as JsonRpcMessage) : undefined;
        if (!message || invalidMessage(message) !== undefined) {
          continue;
        }
        if (kindOf(message) === 'request' && session) {
          // T78: sampling or elicitation has no client to go to behind a virtual server.
          const refusal = rpcError(
            message.id,
            METHOD_NOT_FOUND,
            'a virtual server carries no server requests',
          );
          void this.send(context, session, 'POST', refusal).then(
            (a) => a.body.dump(),
            () => undefined,
          );
        }
        const found = responseAmong([message], id);
        if (found) {
          answer.body.destroy();
          return found;
        }
      }
    }
    return undefined;
  }
}

function responseAmong(values: unknown[], id: JsonRpcMessage['id']): JsonRpcMessage | undefined {
  return values.find(
    (v): v is JsonRpcMessage =>
      invalidMessage(v) === undefined &&
      kindOf(v as JsonRpcMessage) === 'response' &&
      (v as JsonRpcMessage).id === id,
  );
}
