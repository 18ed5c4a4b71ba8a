import { randomBytes } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

/** OTLP/JSON as the specification writes it: hex ids, enums as integers, 64-bit integers as strings. */
export function otlpJsonSpan(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const start = BigInt(Date.now()) * 1_000_000n;
  return {
    traceId: randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
    name: 'tool call',
    kind: 3,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 5_000_000n),
    attributes: [
      { key: 'gen_ai.tool.name', value: { stringValue: 'search' } },
      { key: 'retries', value: { intValue: '2' } },
    ],
    status: { code: 1 },
    ...overrides,
  };
}

export function otlpJsonTraces(
  spans: Array<Record<string, unknown>>,
  resource: Array<{ key: string; value: Record<string, unknown> }> = [],
): Record<string, unknown> {
  return {
    resourceSpans: [
      {
        resource: {
          attributes: [
            { key: 'service.name', value: { stringValue: 'checkout-agent' } },
            ...resource,
          ],
        },
        scopeSpans: [
          {
            scope: { name: 'agent-tracer', version: '1.2.0', attributes: [] },
            spans,
          },
        ],
      },
    ],
  };
}

export interface OtlpAnswer {
  status: number;
  headers: Record<string, unknown>;
  body: Buffer;
  json: () => Record<string, unknown>;
}

/** Posts an export request as an exporter does. */
export async function postOtlp(
  app: NestFastifyApplication,
  signal: 'traces' | 'logs',
  token: string,
  body: Buffer | string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<OtlpAnswer> {
  const response = await app.inject({
    method: 'POST',
    url: `/audit/v1/telemetry/v1/${signal}`,
    headers: { authorization: `Bearer ${token}`, ...headers },
    payload: body,
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.rawPayload,
    json: () => response.json(),
  };
}
