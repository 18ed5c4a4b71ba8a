import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, Dispatcher, errors, request } from 'undici';

import { EgressOptions, checkEgressUrl } from '../../common/egress-policy';
import { EGRESS_OPTIONS } from '../../config/relay-config.module';
import { LICENCE_HEADER, guardedLookup } from '../mcp/mcp-upstream';
import { readBodyWithin } from '../pipeline/upstream-body';
import { CallTrace } from '../tracing/call-trace';

/** The largest JSON-RPC answer (or streamed event) the relay reads whole. */
export const MAX_A2A_MESSAGE_BYTES = 32 * 1024 * 1024;
/** An agent card is a small document; anything larger is not one. */
const MAX_CARD_BYTES = 1024 * 1024;
const CARD_TIMEOUT_MS = 10_000;
/** URLs whose egress verdict is kept; far more than the agents a relay calls. */
const MAX_CHECKED_URLS = 10_000;

/** Headers of the A2A JSON-RPC binding the relay carries to the agent (D38). */
const CARRIED_HEADERS = ['a2a-version', 'a2a-extensions'];

export class A2aUpstreamFailure extends Error {
  constructor(
    readonly status: 502 | 504,
    message: string,
  ) {
    super(message);
  }
}

export interface A2aUpstreamRequest {
  url: string;
  body: string;
  /** A streaming method asks for SSE, any other for JSON, as the SDK's own client does. */
  isStreaming: boolean;
  /** The caller's headers: only A2A's own are carried (D37: never its token). */
  callerHeaders: Record<string, string | string[] | undefined>;
  credential?: { header: string; value: string };
  /** D60, payments.md PY3: a judged payment's own header, as the agent sent it. */
  payment?: { header: string; value: string };
  /** MK27: the licence an installation's call goes under, for the agent to verify offline. */
  licence?: string;
  correlationId: string;
  /** D46, T89: `traceparent`/`tracestate` go to the agent. */
  trace?: CallTrace;
  timeoutMs: number;
  /** A stream's events may come far apart: the idle limit is then the timeout between them. */
  signal: AbortSignal;
  label: string;
}

/** The relay's HTTP client towards A2A agents: one pooled undici agent, egress checked (D37). */
@Injectable()
export class A2aUpstream implements OnApplicationShutdown {
  private readonly dispatcher: Agent;
  /** D37's verdict on each URL called (null: allowed). */
  private readonly checkedUrls = new Map<string, string | null>();

  constructor(@Inject(EGRESS_OPTIONS) private readonly egress: EgressOptions) {
    this.dispatcher = new Agent({
      connections: 256,
      keepAliveTimeout: 30_000,
      connect: { timeout: 10_000, lookup: guardedLookup(egress) },
    });
  }

  async send(call: A2aUpstreamRequest): Promise<Dispatcher.ResponseData> {
    const headers: Record<string, string> = {
      accept: call.isStreaming ? 'text/event-stream' : 'application/json',
      'content-type': 'application/json',
      'x-correlation-id': call.correlationId,
      ...call.trace?.upstreamHeaders(),
    };
    for (const name of CARRIED_HEADERS) {
      const value = call.callerHeaders[name];
      if (typeof value === 'string') {
        headers[name] = value;
      }
    }
    if (call.credential) {
      headers[call.credential.header.toLowerCase()] = call.credential.value;
    }
    if (call.payment) {
      headers[call.payment.header] = call.payment.value;
    }
    if (call.licence) {
      headers[LICENCE_HEADER] = call.licence;
    }
    this.checkUrl(call.url, call.label);
    try {
      return await request(call.url, {
        method: 'POST',
        headers,
        body: call.body,
        signal: call.signal,
        dispatcher: this.dispatcher,
        headersTimeout: call.timeoutMs,
        bodyTimeout: call.timeoutMs,
      });
    } catch (error) {
      throw a2aFailureOf(error, call.label, call.timeoutMs);
    }
  }

  /** D38: the agent's card from its `agentCardUrl`, as JSON (what it says is the caller's to check). */
  async fetchCard(url: string, label: string): Promise<unknown> {
    this.checkUrl(url, label);
    let answer: Dispatcher.ResponseData;
    try {
      answer = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        dispatcher: this.dispatcher,
        headersTimeout: CARD_TIMEOUT_MS,
        bodyTimeout: CARD_TIMEOUT_MS,
        signal: AbortSignal.timeout(CARD_TIMEOUT_MS),
      });
    } catch (error) {
      throw a2aFailureOf(error, `the agent card of ${label}`, CARD_TIMEOUT_MS);
    }
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      throw new A2aUpstreamFailure(
        502,
        `the agent card of ${label} answered HTTP ${answer.statusCode} at ${url}`,
      );
    }
    let text: string;
    try {
      text = await readLimited(answer, MAX_CARD_BYTES, `the agent card of ${label}`);
    } catch (error) {
      throw a2aFailureOf(error, `the agent card of ${label}`, CARD_TIMEOUT_MS);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new A2aUpstreamFailure(502, `the agent card of ${label} is not JSON`);
    }
  }

  /** D37 on the URL (addresses via `guardedLookup`); depends on URL alone, so cached per URL. */
  private checkUrl(url: string, label: string): void {
    let refusal = this.checkedUrls.get(url);
    if (refusal === undefined) {
      refusal = checkEgressUrl(url, this.egress);
      if (this.checkedUrls.size >= MAX_CHECKED_URLS) {
        this.checkedUrls.clear();
      }
      this.checkedUrls.set(url, refusal);
    }
    if (refusal) {
      throw new A2aUpstreamFailure(502, `${label}: ${url} is not allowed (D37): ${refusal}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const closed = this.dispatcher.close().catch(() => undefined);
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    await this.dispatcher.destroy();
  }
}

export function a2aFailureOf(error: unknown, label: string, timeoutMs: number): A2aUpstreamFailure {
  if (error instanceof A2aUpstreamFailure) {
    return error;
  }
  if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
    return new A2aUpstreamFailure(504, `${label} did not answer within ${timeoutMs} ms`);
  }
  const why = error instanceof Error ? error.message : String(error);
  return new A2aUpstreamFailure(502, `${label} failed: ${why}`);
}

/** At most `limit` bytes of an answer, as text; more is the target's fault. */
export function readLimited(
  answer: Dispatcher.ResponseData,
  limit: number,
  label: string,
): Promise<string> {
  return readBodyWithin(
    answer,
    limit,
    () => new A2aUpstreamFailure(502, `${label} answered more than ${limit} bytes`),
  );
}
