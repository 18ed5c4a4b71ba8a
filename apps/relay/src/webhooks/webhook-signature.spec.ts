import { webcrypto } from 'node:crypto';

import fc from 'fast-check';

import { webhookSignature, webhookSignatureHeader, newWebhookSecret } from './webhook-signature';

/**
 * A verifier written apart from the signer, as a receiver would write it from D19 alone: WebCrypto
 * HMAC over the timestamp, a full stop and the raw bytes, any of the `v1=` values matching.
 */
async function verifies(
  secret: string,
  header: string,
  timestamp: number,
  body: Uint8Array,
): Promise<boolean> {
  const key = await webcrypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  const prefix = new TextEncoder().encode(`${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  for (const part of header.split(' ')) {
    const match = /^v1=([0-9a-f]{64})$/.exec(part);
    if (!match) {
      continue;
    }
    const mac = Uint8Array.from(Buffer.from(match[1], 'hex'));
    if (await webcrypto.subtle.verify('HMAC', key, mac, signed)) {
      return true;
    }
  }
  return false;
}

const secrets = fc.string({ minLength: 1, maxLength: 80 });
const timestamps = fc.integer({ min: 0, max: 4_102_444_800 });
const bodies = fc.uint8Array({ minLength: 0, maxLength: 512 });

describe('webhookSignature', () => {
  it('should verify with an independent HMAC for every secret, timestamp and body', async () => {
    await fc.assert(
      fc.asyncProperty(secrets, timestamps, bodies, async (secret, timestamp, body) => {
        const header = webhookSignatureHeader([secret], timestamp, Buffer.from(body));

        expect(header).toMatch(/^v1=[0-9a-f]{64}$/);
        expect(await verifies(secret, header, timestamp, body)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('should refuse when any byte of the body, the timestamp or the secret differs', async () => {
    await fc.assert(
      fc.asyncProperty(
        secrets,
        timestamps,
        bodies.filter((b) => b.length > 0),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (secret, timestamp, body, at, flip) => {
          const header = webhookSignatureHeader([secret], timestamp, Buffer.from(body));
          const tampered = Uint8Array.from(body);
          tampered[at % body.length] ^= flip;

          expect(await verifies(secret, header, timestamp, tampered)).toBe(false);
          expect(await verifies(secret, header, timestamp + 1, body)).toBe(false);
          expect(await verifies(`${secret}x`, header, timestamp, body)).toBe(false);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('should carry one signature per secret, newest first, each verifying with its own secret', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(secrets, { minLength: 2, maxLength: 2 }),
        timestamps,
        bodies,
        async ([current, previous], timestamp, body) => {
          const header = webhookSignatureHeader([current, previous], timestamp, Buffer.from(body));
          const [first, second] = header.split(' ');

          expect(first).toBe(`v1=${webhookSignature(current, timestamp, Buffer.from(body))}`);
          expect(await verifies(current, second, timestamp, body)).toBe(false);
          expect(await verifies(previous, second, timestamp, body)).toBe(true);
          expect(await verifies(current, header, timestamp, body)).toBe(true);
          expect(await verifies(previous, header, timestamp, body)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('should sign a string body as its UTF-8 bytes', () => {
    fc.assert(
      fc.property(
        secrets,
        timestamps,
        fc.string({ unit: 'grapheme' }),
        (secret, timestamp, text) => {
          expect(webhookSignature(secret, timestamp, text)).toBe(
            webhookSignature(secret, timestamp, Buffer.from(text, 'utf8')),
          );
        },
      ),
    );
  });

  it('should refuse to sign with no secret', () => {
    expect(() => webhookSignatureHeader([], 1, '{}')).toThrow('at least one secret');
  });

  it('should make distinct 256-bit secrets', () => {
    const made = new Set(Array.from({ length: 100 }, () => newWebhookSecret()));

    expect(made.size).toBe(100);
    for (const secret of made) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    }
  });
});
