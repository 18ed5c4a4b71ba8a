import { createHmac, timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';

/** Slack's window for a request's timestamp: older (or newer) requests are replays (CH2). */
export const SLACK_TIMESTAMP_WINDOW_SECONDS = 300;

/** Slack's `v0=` hex HMAC-SHA256 of `v0:{timestamp}:{raw body}`. */
export function slackSignature(signingSecret: string, timestamp: string, rawBody: string): string {
  const mac = createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`);
  return `v0=${mac.digest('hex')}`;
}

/** CH2: timestamp within five minutes, signature compared in constant time. */
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
