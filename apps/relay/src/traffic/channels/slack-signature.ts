import { createHmac, timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';

/** Slack's window for a request's timestamp: older (or newer) requests are replays (CH2). */
export const SLACK_TIMESTAMP_WINDOW_SECONDS = 300;

/**
 * Slack's request signing: `v0=` and the hex HMAC-SHA256, keyed with the app's signing secret, of
 * `v0:{X-Slack-Request-Timestamp}:{raw body}`.
 */
export function slackSignature(signingSecret: string, timestamp: string, rawBody: string): string {
  const mac = createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`);
  return `v0=${mac.digest('hex')}`;
}

/**
 * Why a request does not come from Slack, undefined when it does (CH2): the timestamp within five
 * minutes of `nowSeconds`, the signature equal in constant time.
 */
export function slackRequestFault(
  signingSecret: string,
  headers: IncomingHttpHeaders,
  rawBody: string,
  nowSeconds: number,
): string | undefined {
  const timestamp = headers['x-slack-request-timestamp'];
  const signature = headers['x-slack-signature'];
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) {
    return 'X-Slack-Request-Timestamp is missing or not a number';
  }
  if (Math.abs(nowSeconds - Number(timestamp)) > SLACK_TIMESTAMP_WINDOW_SECONDS) {
    return 'X-Slack-Request-Timestamp is more than five minutes from now';
  }
  if (typeof signature !== 'string') {
    return 'X-Slack-Signature is missing';
  }
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, rawBody));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return 'X-Slack-Signature does not match the body';
  }
  return undefined;
}
