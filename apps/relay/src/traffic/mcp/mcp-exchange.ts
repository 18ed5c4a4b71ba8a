import { Injectable } from '@nestjs/common';
import { HttpProblem } from '@agp/http';

import { HopPipeline } from '../pipeline/hop-pipeline';
import { OpenedCredentials } from '../pipeline/opened-credentials';
import { readBodyWithin } from '../pipeline/upstream-body';
import { REFUSALS } from '../pipeline/refusal-codes';
import { JsonRpcId, JsonRpcMessage, invalidMessage, rpcRefusal } from './json-rpc';
import { McpCall, hopOf } from './mcp-call';
import { McpHops } from './mcp-hops';
import { jsonLinesAsEvents } from './mcp-json-lines';
import { AskedFor } from './mcp-messages';
import { McpOpenStreams, OpenStream } from './mcp-open-stream';
import {
  MAX_UPSTREAM_MESSAGE_BYTES,
  McpUpstream,
  UpstreamAnswer,
  UpstreamFailure,
  UpstreamRequest,
  failureOf,
  serverLabel,
} from './mcp-upstream';
import { SseWriter } from '../pipeline/sse-writer';
import { upstreamCredentialOf } from './upstream-credential-of';
import { PaidCall } from '../payments/paid-call';

/** What the controller sends the agent: a JSON body, a bare status, or a stream it runs. */
export type McpAnswer =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'empty'; status: number; headers?: Record<string, string> }
  /** payments.md PY2: an x402 402, handed to the paying agent as the server wrote it. */
  | { kind: 'raw'; status: number; body: string; headers: Record<string, string> }
  | {
      kind: 'stream';
      headers: Record<string, string>;
      run(writer: SseWriter): Promise<void>;
      /** The agent went away: stop reading the server and free what the exchange holds. */
      cancel(): void;
    };

export interface PostToForward {
  body: JsonRpcMessage | JsonRpcMessage[];
  isBatch: boolean;
  pending: Map<JsonRpcId, AskedFor>;
  /** Answers the relay gives in place of refused requests of the same POST. */
  localAnswers: JsonRpcMessage[];
  /** T95: a `subscriptions/listen` request, whose answer stays open as long as the agent listens. */
  listening?: boolean;
}

const CARRIED_RESPONSE_HEADERS = ['mcp-session-id', 'mcp-protocol-version'];

/** T6: every upstream fault becomes an answer the agent can act on. */
@Injectable()
export class McpExchange {
  constructor(
    private readonly upstream: McpUpstream,
    private readonly hops: McpHops,
    private readonly pipeline: HopPipeline,
    private readonly streams: McpOpenStreams,
    private readonly credentials: OpenedCredentials,
  ) {}

  async forwardPost(call: McpCall, post: PostToForward, paid?: PaidCall): Promise<McpAnswer> {
    const abort = new AbortController();
    const answer = await this.send(
      call,
      post.pending,
      {
        ...this.requestOf(call, 'POST', abort.signal),
        body: JSON.stringify(post.body),
        ...(post.listening ? { isListening: true } : {}),
      },
      paid,
    );
    // D60: x402's headers go back beside MCP's; a forwarded payment's outcome is recorded.
    const headers = {
      ...carriedHeaders(answer),
      ...(await paid?.answered(answer.statusCode, answer.headers)),
    };
    const type = contentTypeOf(answer);
    if (answer.statusCode === 402 && paid) {
      const body = await readBodyWithin(
        answer,
        MAX_UPSTREAM_MESSAGE_BYTES,
        () => new Error('too large'),
      ).catch(() => '');
      const required = await paid.required(answer.headers, body);
      if (required) {
        return { kind: 'raw', status: 402, body, headers: { ...headers, ...required } };
      }
      throw await this.failed(call, post.pending, upstreamStatusFailure(call, answer));
    }
    const isLines = post.listening === true && type === 'application/json';
    if (answer.statusCode === 200 && (type === 'text/event-stream' || isLines)) {
      const events = { body: isLines ? jsonLinesAsEvents(answer.body) : answer.body };
      return this.stream(call, events, abort, headers, post.pending, async (writer) => {
        writer.open(headers);
        for (const local of post.localAnswers) {
          await writer.message(local);
        }
      });
    }
    if (type === 'application/json') {
      const messages = await this.readMessages(call, answer, post.pending);
      const judged = await Promise.all(
        messages.map((m) => this.hops.judgeFromServer(call, m, askedForOf(post.pending, m))),
      );
      await Promise.all(judged.map((j) => j.audited));
      const body = [...post.localAnswers, ...judged.flatMap((j) => (j.forward ? [j.forward] : []))];
      return body.length === 0
        ? { kind: 'empty', status: answer.statusCode, headers }
        : {
            kind: 'json',
            status: answer.statusCode,
            body: post.isBatch || body.length > 1 ? body : body[0],
            headers,
          };
    }
    await answer.body.dump();
    if (answer.statusCode < 300 && post.pending.size === 0) {
      return post.localAnswers.length === 0
        ? { kind: 'empty', status: answer.statusCode, headers }
        : {
            kind: 'json',
            status: 200,
            body: post.isBatch ? post.localAnswers : post.localAnswers[0],
            headers,
          };
    }
    throw await this.failed(call, post.pending, upstreamStatusFailure(call, answer));
  }

  async listen(call: McpCall): Promise<McpAnswer> {
    const abort = new AbortController();
    const answer = await this.send(call, new Map(), {
      ...this.requestOf(call, 'GET', abort.signal),
      isListening: true,
    });
    const headers = carriedHeaders(answer);
    if (answer.statusCode === 200 && contentTypeOf(answer) === 'text/event-stream') {
      return this.stream(call, answer, abort, headers, new Map(), (writer) => {
        writer.open(headers);
        return Promise.resolve();
      });
    }
    await answer.body.dump();
    if (answer.statusCode < 500) {
      // 405 (the server offers no stream), 404 (unknown session): the agent's SDK acts on these.
      return { kind: 'empty', status: answer.statusCode, headers };
    }
    throw await this.failed(call, new Map(), upstreamStatusFailure(call, answer));
  }

  async endSession(call: McpCall): Promise<McpAnswer> {
    const abort = new AbortController();
    const answer = await this.send(call, new Map(), this.requestOf(call, 'DELETE', abort.signal));
    await answer.body.dump();
    if (answer.statusCode >= 500) {
      throw await this.failed(call, new Map(), upstreamStatusFailure(call, answer));
    }
    return { kind: 'empty', status: answer.statusCode, headers: carriedHeaders(answer) };
  }

  private stream(
    call: McpCall,
    answer: OpenStream['answer'],
    abort: AbortController,
    headers: Record<string, string>,
    pending: Map<JsonRpcId, AskedFor>,
    open: (writer: SseWriter) => Promise<void>,
  ): McpAnswer {
    const stream: OpenStream = {
      call,
      answer,
      abort,
      pending,
      open,
      requestOf: (signal) => this.requestOf(call, 'POST', signal),
    };
    return {
      kind: 'stream',
      headers,
      cancel: () => abort.abort(),
      run: (writer) => this.streams.run(stream, writer),
    };
  }

  private async send(
    call: McpCall,
    pending: Map<JsonRpcId, AskedFor>,
    request: UpstreamRequest,
    paid?: PaidCall,
  ): Promise<UpstreamAnswer> {
    try {
      const credential = upstreamCredentialOf(this.credentials, call.route.server);
      const paying = { ...request, ...paid?.upstreamHeader() };
      return await this.upstream.send(credential ? { ...paying, credential } : paying);
    } catch (error) {
      const failure = failureOf(error, call.route.server);
      await paid?.unanswered(failure.message);
      throw await this.failed(call, pending, failure);
    }
  }

  private requestOf(
    call: McpCall,
    method: UpstreamRequest['method'],
    signal: AbortSignal,
  ): UpstreamRequest {
    return {
      server: call.route.server,
      method,
      agentHeaders: call.agentHeaders,
      correlationId: call.correlationId,
      trace: call.trace,
      ...(call.licence ? { licence: call.licence } : {}),
      signal,
    };
  }

  /** The messages of a JSON answer; anything else from the server is its failure (T6). */
  private async readMessages(
    call: McpCall,
    answer: UpstreamAnswer,
    pending: Map<JsonRpcId, AskedFor>,
  ): Promise<JsonRpcMessage[]> {
    let value: unknown;
    try {
      const text = await readBodyWithin(
        answer,
        MAX_UPSTREAM_MESSAGE_BYTES,
        () => new UpstreamFailure(502, `an answer larger than ${MAX_UPSTREAM_MESSAGE_BYTES} bytes`),
      );
      value = JSON.parse(text);
    } catch (error) {
      const why =
        error instanceof UpstreamFailure
          ? error.message
          : `${serverLabel(call.route.server)} answered a body that is not JSON`;
      throw await this.failed(call, pending, new UpstreamFailure(502, why));
    }
    const values = Array.isArray(value) ? value : [value];
    const invalid = values.map(invalidMessage).find((why) => why !== undefined);
    if (invalid) {
      const why = `${serverLabel(call.route.server)} answered something that is not JSON-RPC (${invalid})`;
      throw await this.failed(call, pending, new UpstreamFailure(502, why));
    }
    return values as JsonRpcMessage[];
  }

  /** Audits each unanswered request as ERROR and gives the problem the agent gets (502/504). */
  private async failed(
    call: McpCall,
    pending: Map<JsonRpcId, AskedFor>,
    failure: UpstreamFailure,
  ): Promise<HttpProblem> {
    const refusals = [...pending].map(([id, askedFor]) =>
      this.pipeline.refuse(
        hopOf(
          call,
          'RESPONSE',
          rpcRefusal(id, REFUSALS.upstreamFailed, {}, failure.message),
          askedFor,
        ),
        {
          type: 'COMMUNICATION_AUDIT',
          action: 'ERROR',
          reason: failure.message,
          details: { outcome: 'ERROR', httpStatus: failure.status },
        },
      ),
    );
    await Promise.all(refusals);
    const slug = failure.status === 504 ? 'upstream-timeout' : 'upstream-failed';
    return new HttpProblem(failure.status, slug, failure.message);
  }
}

function askedForOf(
  pending: Map<JsonRpcId, AskedFor>,
  message: JsonRpcMessage,
): AskedFor | undefined {
  const id = message.id;
  if (id === undefined || id === null || message.method !== undefined) {
    return undefined;
  }
  const askedFor = pending.get(id);
  pending.delete(id);
  return askedFor;
}

function contentTypeOf(answer: UpstreamAnswer): string {
  const value = answer.headers['content-type'];
  return (typeof value === 'string' ? value : '').split(';')[0].trim().toLowerCase();
}

function carriedHeaders(answer: UpstreamAnswer): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of CARRIED_RESPONSE_HEADERS) {
    const value = answer.headers[name];
    if (typeof value === 'string') {
      headers[name] = value;
    }
  }
  return headers;
}

function upstreamStatusFailure(call: McpCall, answer: UpstreamAnswer): UpstreamFailure {
  return new UpstreamFailure(
    502,
    `${serverLabel(call.route.server)} answered HTTP ${answer.statusCode} without a JSON-RPC message`,
  );
}
