import { IncomingHttpHeaders } from 'node:http';

import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, Dispatcher, errors, request } from 'undici';

import { EgressOptions } from '../../common/egress-policy';
import { guardedLookup } from '../../common/guarded-lookup';
import { EGRESS_OPTIONS } from '../../config/relay-config.module';
import { McpServerRoute } from '../pipeline/traffic-directory';
import { CallTrace } from '../tracing/call-trace';

export { guardedLookup };

/**
 * Headers of the MCP Streamable HTTP transport that the relay carries both ways (D20); T96: the
 * 2026-07-28 request metadata too, and every `Mcp-Param-*` (intermediaries MUST forward them).
 */
const CARRIED_REQUEST_HEADERS = [
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'mcp-method',
  'mcp-name',
];
const PARAM_HEADER_PREFIX = 'mcp-param-';

/** MK27, MK32: where a licensed installation's licence goes to the publisher's agent or server. */
export const LICENCE_HEADER = 'x-agp-licence';

/** The largest answer the relay reads whole (a JSON body, or one SSE event). */
export const MAX_UPSTREAM_MESSAGE_BYTES = 32 * 1024 * 1024;

export interface UpstreamRequest {
  server: McpServerRoute;
  method: 'POST' | 'GET' | 'DELETE';
  /** The agent's request headers: only the transport's own are carried (D37: never its token). */
  agentHeaders: IncomingHttpHeaders;
  /** The upstream credential, opened (D37). */
  credential?: { header: string; value: string };
  /** D60, payments.md PY3: a judged payment's own header, as the agent sent it. */
  payment?: { header: string; value: string };
  correlationId: string;
  /** D46, T89: `traceparent`/`tracestate` go to the server. */
  trace?: CallTrace;
  body?: string;
  /** T97: headers the relay sets itself when it speaks to the server in another revision. */
  headers?: Record<string, string>;
  /** GET streams wait for server-initiated messages as long as the agent listens. */
  isListening?: boolean;
  /** MK23, MK27: the licence the call goes under, to the publisher's side and its server. */
  licence?: string;
  signal: AbortSignal;
}

/** MK32: how a request to an installed entry reaches its publisher's side (in-process). */
export type InstalledServerRelay = (call: UpstreamRequest) => Promise<UpstreamAnswer>;

/** The headers a request carries to a server: the transport's own, every `Mcp-Param-*`. */
export function carriedRequestHeaders(agentHeaders: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(agentHeaders)) {
    const carried = CARRIED_REQUEST_HEADERS.includes(name) || name.startsWith(PARAM_HEADER_PREFIX);
    if (carried && typeof value === 'string') {
      headers[name] = value;
    }
  }
  return headers;
}

export type UpstreamAnswer = Dispatcher.ResponseData;

/** Why an MCP server failed the relay, in words an agent's developer can act on (T6). */
export class UpstreamFailure extends Error {
  constructor(
    readonly status: 502 | 504,
    message: string,
  ) {
    super(message);
  }
}

/** The relay's HTTP client towards MCP servers: one pooled undici agent, timeouts per server. */
@Injectable()
export class McpUpstream implements OnApplicationShutdown {
  private readonly dispatcher: Agent;
  private installed?: InstalledServerRelay;

  constructor(@Inject(EGRESS_OPTIONS) egress: EgressOptions) {
    this.dispatcher = new Agent({
      connections: 256,
      keepAliveTimeout: 30_000,
      connect: { timeout: 10_000, lookup: guardedLookup(egress) },
    });
  }

  /** Set once by InstalledMcpServers, which the relay's services build on (a cycle otherwise). */
  attachInstalled(relay: InstalledServerRelay): void {
    this.installed = relay;
  }

  /**
   * MK32: every request to a server goes through here (the exchange, listening streams, tool
   * re-lists, revision probes, virtual members), so an installed entry is reached the same way.
   */
  async send(call: UpstreamRequest): Promise<UpstreamAnswer> {
    if (call.server.installation) {
      return this.installed!(call);
    }
    const headers: Record<string, string> = {
      accept: 'application/json, text/event-stream',
      'x-correlation-id': call.correlationId,
      ...call.trace?.upstreamHeaders(),
      ...carriedRequestHeaders(call.agentHeaders),
    };
    Object.assign(headers, call.headers);
    if (call.licence) {
      headers[LICENCE_HEADER] = call.licence;
    }
    if (call.method === 'GET') {
      headers.accept = 'text/event-stream';
    }
    if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    if (call.credential) {
      headers[call.credential.header.toLowerCase()] = call.credential.value;
    }
    if (call.payment) {
      headers[call.payment.header] = call.payment.value;
    }
    try {
      return await request(call.server.url, {
        method: call.method,
        headers,
        body: call.body,
        signal: call.signal,
        dispatcher: this.dispatcher,
        headersTimeout: call.server.timeoutMs,
        bodyTimeout: call.isListening ? 0 : call.server.timeoutMs,
      });
    } catch (error) {
      throw failureOf(error, call.server);
    }
  }

  /** Requests still open after five seconds (a stream nobody ended) are cut, not waited for. */
  async onApplicationShutdown(): Promise<void> {
    const closed = this.dispatcher.close().catch(() => undefined);
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    await this.dispatcher.destroy();
  }
}

export function serverLabel(server: McpServerRoute): string {
  return `MCP server "${server.name}" (${server.id})`;
}

export function failureOf(error: unknown, server: McpServerRoute): UpstreamFailure {
  if (error instanceof UpstreamFailure) {
    return error;
  }
  if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
    return new UpstreamFailure(
      504,
      `${serverLabel(server)} did not answer within ${server.timeoutMs} ms`,
    );
  }
  const why = error instanceof Error ? error.message : String(error);
  return new UpstreamFailure(502, `${serverLabel(server)} failed: ${why}`);
}
