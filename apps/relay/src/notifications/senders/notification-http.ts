import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, errors, request } from 'undici';

import { EgressOptions, checkEgressUrl } from '../../common/egress-policy';
import { guardedLookup } from '../../common/guarded-lookup';
import { EGRESS_OPTIONS } from '../../config/relay-config.module';
import { WEBHOOK_OPTIONS, WebhookOptions } from '../../webhooks/webhooks.options';
import { SendOutcome } from '../notification.types';

export interface HttpAnswer {
  statusCode: number;
  /** The first KiB of the answer. */
  text: string;
}

const EXCERPT_BYTES = 1_024;

/** D37, W5: address checked on connect, no redirects, every phase bounded by WEBHOOK_TIMEOUT_MS. */
@Injectable()
export class NotificationHttp implements OnApplicationShutdown {
  private readonly dispatcher: Agent;

  constructor(
    @Inject(EGRESS_OPTIONS) private readonly egress: EgressOptions,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
  ) {
    this.dispatcher = new Agent({
      connections: 32,
      keepAliveTimeout: 10_000,
      connect: { timeout: options.timeoutMs, lookup: guardedLookup(egress) },
    });
  }

  /** POSTs `body`; `judge` turns an answer into an error message, or undefined when it succeeded. */
  async post(
    url: string,
    headers: Record<string, string>,
    body: string,
    judge: (answer: HttpAnswer) => string | undefined,
  ): Promise<SendOutcome> {
    const attemptedAt = new Date();
    const started = performance.now();
    const outcome = (rest: Partial<SendOutcome>): SendOutcome => ({
      attemptedAt,
      durationMs: Math.round(performance.now() - started),
      ...rest,
    });
    const refusal = checkEgressUrl(url, this.egress);
    if (refusal) {
      return outcome({ error: `egress refused (D37): ${refusal}` });
    }
    try {
      const answer = await request(url, {
        method: 'POST',
        dispatcher: this.dispatcher,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        headers: { 'user-agent': 'agp-notifications/1', ...headers },
        body,
      });
      const text = await readExcerpt(answer.body);
      const error = judge({ statusCode: answer.statusCode, text });
      return outcome({ statusCode: answer.statusCode, ...(error ? { error } : {}) });
    } catch (error) {
      return outcome({ error: describe(error, this.options.timeoutMs) });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.dispatcher.destroy();
  }
}

async function readExcerpt(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < EXCERPT_BYTES) {
      chunks.push(chunk);
      size += chunk.length;
    }
  }
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause = (error as { cause?: unknown }).cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause instanceof Error && cause.message !== message
    ? `${message}: ${cause.message}`
    : message;
}
