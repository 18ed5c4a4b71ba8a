import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, errors, request } from 'undici';

import { EgressOptions, checkEgressUrl } from '../common/egress-policy';
import { guardedLookup } from '../common/guarded-lookup';
import { EGRESS_OPTIONS } from '../config/relay-config.module';
import { AttemptOutcome } from './webhook-delivery.types';
import { WEBHOOK_HEADERS, webhookSignatureHeader } from './webhook-signature';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

const EXCERPT_BYTES = 1_024;

export interface SignedRequest {
  url: string;
  deliveryId: string;
  eventType: string;
  correlationId: string;
  body: string;
  secrets: string[];
  /** Sent besides D19's headers, which they never replace (an A2A push's content type and token). */
  headers?: Record<string, string>;
}

/** D19, D37: URL rechecked (policy may have tightened); a 3xx fails, never an unchecked hop. */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly dispatcher: Agent;

  constructor(
    @Inject(EGRESS_OPTIONS) private readonly egress: EgressOptions,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
  ) {
    this.dispatcher = new Agent({
      connections: 64,
      keepAliveTimeout: 10_000,
      connect: { timeout: options.timeoutMs, lookup: guardedLookup(egress) },
    });
  }

  async send(signed: SignedRequest): Promise<AttemptOutcome> {
    const attemptedAt = new Date();
    const started = performance.now();
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const outcome = (rest: Partial<AttemptOutcome>): AttemptOutcome => ({
      url: signed.url,
      attemptedAt,
      durationMs: Math.round(performance.now() - started),
      signatures: signed.secrets.length,
      ...rest,
    });
    const refusal = checkEgressUrl(signed.url, this.egress);
    if (refusal) {
      return outcome({ error: `egress refused (D37): ${refusal}` });
    }
    try {
      const answer = await request(signed.url, {
        method: 'POST',
        dispatcher: this.dispatcher,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'agp-webhooks/1',
          'x-correlation-id': signed.correlationId,
          ...signed.headers,
          [WEBHOOK_HEADERS.eventType]: signed.eventType,
          [WEBHOOK_HEADERS.deliveryId]: signed.deliveryId,
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.signature]: webhookSignatureHeader(
            signed.secrets,
            timestamp,
            signed.body,
          ),
        },
        body: signed.body,
      });
      const excerpt = await readExcerpt(answer.body);
      const isSuccess = answer.statusCode >= 200 && answer.statusCode < 300;
      return outcome({
        statusCode: answer.statusCode,
        responseExcerpt: excerpt || undefined,
        error: isSuccess ? undefined : `the receiver answered ${answer.statusCode}`,
      });
    } catch (error) {
      return outcome({ error: describe(error, this.options.timeoutMs) });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.dispatcher.destroy();
  }
}

/** The first KiB of an answer as text; the rest is read and dropped, so the connection is reused. */
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
