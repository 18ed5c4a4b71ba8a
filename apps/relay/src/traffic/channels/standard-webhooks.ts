import { createHmac, timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';

/** Standard Webhooks' tolerance for `webhook-timestamp`, either way. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const PREFIX = 'whsec_';

/** The HMAC key of a `whsec_` secret: the bytes its base64 stands for. */
function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` (Standard Webhooks). */
export function standardSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`);
  return `v1,${mac.digest('base64')}`;
}

/**
 * The three headers of a signed message (CH7: how the relay signs what it posts). Several secrets
 * sign side by side, space-separated, as Standard Webhooks allows during a rotation (CH19).
 */
export function standardWebhookHeaders(
  secret: string | readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets
      .map((one) => standardSignature(one, id, timestamp, body))
      .join(' '),
  };
}

/** CH7: timestamp within five minutes; any `v1,` signature by any accepted secret (CH19), in constant time. */
export function standardWebhookFault(
  secret: string | readonly string[],
  headers: IncomingHttpHeaders,
  body: string,
  nowSeconds: number,
): string | undefined {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) {
    return 'webhook-id is missing';
  }
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) {
    return 'webhook-timestamp is missing or not a number';
  }
  if (Math.abs(nowSeconds - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) {
    return 'webhook-timestamp is more than five minutes from now';
  }
  if (typeof signatures !== 'string') {
    return 'webhook-signature is missing';
  }
  const expected = (typeof secret === 'string' ? [secret] : secret).map((one) =>
    Buffer.from(standardSignature(one, id, Number(timestamp), body).slice(3), 'base64'),
  );
  for (const part of signatures.split(' ')) {
    const [version, value] = part.split(',', 2);
    if (version !== 'v1' || !value) {
      continue;
    }
    const given = Buffer.from(value, 'base64');
    if (expected.some((one) => given.length === one.length && timingSafeEqual(given, one))) {
      return undefined;
    }
  }
  return 'webhook-signature does not match the body';
}
