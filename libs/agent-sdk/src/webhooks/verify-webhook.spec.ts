import fc from 'fast-check';

import { WebhookVerificationError } from '../errors';
import { WEBHOOK_HEADERS } from './webhook-headers';
import { signWebhook, verifyWebhook } from './verify-webhook';

const NOW = 1_764_000_000_000;
const RUNS = { numRuns: 10_000 };

interface Delivery {
  secret: string;
  timestamp: number;
  rawBody: Buffer;
  headers: Record<string, string>;
}

/** A delivery as D19 has the platform send it: JSON body, the four headers, any whitespace. */
const deliveryArb = fc
  .record({
    secret: fc.string({ minLength: 1, maxLength: 64 }),
    id: fc.uuid(),
    type: fc.constantFrom('SUBSCRIPTION_CHANGED', 'AGENT_LIFECYCLE', 'TENANT_LIFECYCLE', 'OTHER'),
    data: fc.jsonValue({ maxDepth: 2 }),
    indent: fc.constantFrom(0, 1, 2),
    skew: fc.integer({ min: -300, max: 300 }),
  })
  .map(({ secret, id, type, data, indent, skew }): Delivery => {
    const timestamp = Math.floor(NOW / 1000) + skew;
    const rawBody = Buffer.from(JSON.stringify({ id, type, agentId: id, data }, null, indent));
    return {
      secret,
      timestamp,
      rawBody,
      headers: {
        [WEBHOOK_HEADERS.eventType]: type,
        [WEBHOOK_HEADERS.deliveryId]: id,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: signWebhook(secret, timestamp, rawBody),
      },
    };
  });

function refuses(delivery: Omit<Delivery, 'timestamp'>): boolean {
  try {
    verifyWebhook({ ...delivery, now: NOW });
    return false;
  } catch (error) {
    return error instanceof WebhookVerificationError;
  }
}

describe(verifyWebhook.name, () => {
  it('should accept every genuine delivery when its timestamp is within 300 s of now', () => {
    fc.assert(
      fc.property(deliveryArb, (delivery) => {
        const verified = verifyWebhook({ ...delivery, now: NOW });
        return (
          verified.timestamp === delivery.timestamp && verified.event.id === verified.deliveryId
        );
      }),
      RUNS,
    );
  });

  it('should refuse a delivery when any one byte of its body is changed', () => {
    fc.assert(
      fc.property(deliveryArb, fc.nat(), fc.integer({ min: 1, max: 255 }), (delivery, at, xor) => {
        const rawBody = Buffer.from(delivery.rawBody);
        const index = at % rawBody.length;
        rawBody[index] = rawBody[index] ^ xor;
        return refuses({ ...delivery, rawBody });
      }),
      RUNS,
    );
  });

  it('should refuse a delivery when its timestamp header is changed in any way', () => {
    fc.assert(
      fc.property(deliveryArb, fc.string({ maxLength: 14 }), (delivery, forged) => {
        fc.pre(forged !== String(delivery.timestamp));
        return refuses({
          ...delivery,
          headers: { ...delivery.headers, [WEBHOOK_HEADERS.timestamp]: forged },
        });
      }),
      RUNS,
    );
  });

  it('should refuse a delivery when the signed timestamp is more than 300 s from now', () => {
    fc.assert(
      fc.property(
        deliveryArb,
        fc.integer({ min: 301, max: 10_000_000 }),
        fc.boolean(),
        (delivery, offset, past) => {
          const timestamp = Math.floor(NOW / 1000) + (past ? -offset : offset);
          const headers = {
            ...delivery.headers,
            [WEBHOOK_HEADERS.timestamp]: String(timestamp),
            [WEBHOOK_HEADERS.signature]: signWebhook(delivery.secret, timestamp, delivery.rawBody),
          };
          return refuses({ ...delivery, headers });
        },
      ),
      RUNS,
    );
  });

  it('should refuse a delivery when any header is removed or altered', () => {
    const names = Object.values(WEBHOOK_HEADERS);
    fc.assert(
      fc.property(
        deliveryArb,
        fc.constantFrom(...names),
        fc.option(fc.string({ maxLength: 80 }), { nil: undefined }),
        (delivery, name, replacement) => {
          fc.pre(replacement !== delivery.headers[name]);
          const headers: Record<string, string> = { ...delivery.headers };
          if (replacement === undefined) {
            delete headers[name];
          } else {
            headers[name] = replacement;
          }
          return refuses({ ...delivery, headers });
        },
      ),
      RUNS,
    );
  });

  it('should refuse a delivery when one character of its signature is changed', () => {
    fc.assert(
      fc.property(deliveryArb, fc.nat(), fc.constantFrom(...'0123456789abcdef'), (d, at, c) => {
        const signature = d.headers[WEBHOOK_HEADERS.signature];
        const index = 3 + (at % 64);
        fc.pre(signature[index]?.toLowerCase() !== c.toLowerCase());
        const forged = signature.slice(0, index) + c + signature.slice(index + 1);
        return refuses({ ...d, headers: { ...d.headers, [WEBHOOK_HEADERS.signature]: forged } });
      }),
      RUNS,
    );
  });

  it('should refuse a delivery when it is signed with another secret', () => {
    fc.assert(
      fc.property(deliveryArb, fc.string({ minLength: 1, maxLength: 64 }), (delivery, other) => {
        fc.pre(other !== delivery.secret);
        return refuses({ ...delivery, secret: other });
      }),
      RUNS,
    );
  });

  it('should accept a delivery when any one of several v1= signatures matches (rotation)', () => {
    fc.assert(
      fc.property(
        deliveryArb,
        fc.string({ minLength: 1 }),
        fc.boolean(),
        (delivery, old, first) => {
          const genuine = delivery.headers[WEBHOOK_HEADERS.signature];
          const stale = signWebhook(old, delivery.timestamp, delivery.rawBody);
          const both = first ? `${genuine} ${stale}` : `${stale} ${genuine}`;
          verifyWebhook({
            ...delivery,
            headers: { ...delivery.headers, [WEBHOOK_HEADERS.signature]: both },
            now: NOW,
          });
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('should refuse a delivery when its body was re-serialised rather than kept as raw bytes', () => {
    const body = Buffer.from('{ "id": "d1", "type": "AGENT_LIFECYCLE" }');
    const timestamp = Math.floor(NOW / 1000);
    const headers = {
      [WEBHOOK_HEADERS.eventType]: 'AGENT_LIFECYCLE',
      [WEBHOOK_HEADERS.deliveryId]: 'd1',
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.signature]: signWebhook('s', timestamp, body),
    };

    expect(() =>
      verifyWebhook({
        secret: 's',
        headers,
        rawBody: JSON.stringify(JSON.parse(body.toString())),
        now: NOW,
      }),
    ).toThrow(WebhookVerificationError);
    expect(verifyWebhook({ secret: 's', headers, rawBody: body, now: NOW }).eventType).toBe(
      'AGENT_LIFECYCLE',
    );
  });

  it('should honour a configured window when one is given', () => {
    const body = '{"id":"d2","type":"AGENT_LIFECYCLE"}';
    const timestamp = Math.floor(NOW / 1000) - 30;
    const headers = {
      [WEBHOOK_HEADERS.eventType]: 'AGENT_LIFECYCLE',
      [WEBHOOK_HEADERS.deliveryId]: 'd2',
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.signature]: signWebhook('s', timestamp, body),
    };

    expect(() =>
      verifyWebhook({ secret: 's', headers, rawBody: body, now: NOW, toleranceSeconds: 10 }),
    ).toThrow('timestamp outside the accepted window');
  });
});
