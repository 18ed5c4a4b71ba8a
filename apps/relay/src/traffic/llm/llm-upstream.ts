import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, Dispatcher, errors, request } from 'undici';

import { EgressOptions } from '../../common/egress-policy';
import { EGRESS_OPTIONS } from '../../config/relay-config.module';
import { guardedLookup } from '../mcp/mcp-upstream';
import { LlmProviderRoute } from '../pipeline/llm-route';
import { CallTrace } from '../tracing/call-trace';

/** The largest answer the relay reads whole (a completion, or one SSE event of a stream). */
export const MAX_COMPLETION_BYTES = 32 * 1024 * 1024;

export type ProviderAnswer = Dispatcher.ResponseData;

/** D39, T23: BROKEN is an answer that broke before any byte reached the agent. */
export class ProviderFailure extends Error {
  constructor(
    readonly kind: 'UNREACHABLE' | 'TIMEOUT' | 'STATUS' | 'BROKEN',
    message: string,
    readonly httpStatus?: number,
    readonly retryAfter?: string,
  ) {
    super(message);
  }
}

export interface ProviderRequest {
  method: 'GET' | 'POST';
  /** Below the provider's base URL: `chat/completions`, `models`. */
  path: string;
  body?: string;
  /** The provider's own key, opened (D37); the agent's token never travels. */
  apiKey?: string;
  correlationId: string;
  /** payments.md PY16: a judged x402 payment's own header, to the provider that asked only. */
  payment?: { header: string; value: string };
  /** D46, T89: `traceparent`/`tracestate` go to the provider. */
  trace?: CallTrace;
  signal: AbortSignal;
}

export function providerLabel(provider: LlmProviderRoute): string {
  return `LLM provider "${provider.name}" (${provider.id})`;
}

/** The relay's HTTP client towards LLM providers: one pooled undici agent, D37 checks on connect. */
@Injectable()
export class LlmUpstream implements OnApplicationShutdown {
  private readonly dispatcher: Agent;

  constructor(@Inject(EGRESS_OPTIONS) egress: EgressOptions) {
    this.dispatcher = new Agent({
      connections: 256,
      keepAliveTimeout: 30_000,
      connect: { timeout: 10_000, lookup: guardedLookup(egress) },
    });
  }

  /** The provider's answer once its status and headers are in; a network fault or timeout throws. */
  async open(provider: LlmProviderRoute, call: ProviderRequest): Promise<ProviderAnswer> {
    const headers: Record<string, string> = {
      accept: 'application/json, text/event-stream',
      'x-correlation-id': call.correlationId,
      ...call.trace?.upstreamHeaders(),
      ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(call.apiKey ? { authorization: `Bearer ${call.apiKey}` } : {}),
      ...(call.payment ? { [call.payment.header]: call.payment.value } : {}),
    };
    try {
      return await request(`${provider.baseUrl.replace(/\/+$/, '')}/${call.path}`, {
        method: call.method,
        headers,
        body: call.body,
        signal: call.signal,
        dispatcher: this.dispatcher,
        headersTimeout: provider.timeoutMs,
        bodyTimeout: provider.timeoutMs,
      });
    } catch (error) {
      throw providerFailureOf(error, provider);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const closed = this.dispatcher.close().catch(() => undefined);
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    await this.dispatcher.destroy();
  }
}

export function providerFailureOf(
  error: unknown,
  provider: LlmProviderRoute,
  otherwise: 'UNREACHABLE' | 'BROKEN' = 'UNREACHABLE',
): ProviderFailure {
  if (error instanceof ProviderFailure) {
    return error;
  }
  if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
    return new ProviderFailure(
      'TIMEOUT',
      `${providerLabel(provider)} did not answer within ${provider.timeoutMs} ms`,
    );
  }
  const cause = (error as { cause?: unknown } | null)?.cause;
  const why = [error, cause]
    .map((e) => (e instanceof Error ? e.message : undefined))
    .filter(Boolean)
    .join(': ');
  return new ProviderFailure(
    otherwise,
    `${providerLabel(provider)} failed: ${why || String(error)}`,
  );
}
