import { createHmac } from 'node:crypto';

import { slackRequestFault } from './slack-signature';

/**
 * Slack's signing written apart from the relay's, from Slack's documentation: `v0=` and the hex
 * HMAC-SHA256 of `v0:{timestamp}:{body}` under the signing secret.
 */
function signedBySlack(secret: string, timestamp: number, body: string): Record<string, string> {
  const hex = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': `v0=${hex}` };
}

describe('Slack request signing (channels.md CH2)', () => {
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const body = '{"type":"event_callback","event_id":"Ev1"}';
  const now = 1_765_310_000;

  it('should accept a request Slack signed within five minutes', () => {
    expect(
      slackRequestFault(secret, signedBySlack(secret, now - 299, body), body, now),
    ).toBeUndefined();
  });

  it('should refuse a stale timestamp, a changed body, another secret and missing headers', () => {
    expect(slackRequestFault(secret, signedBySlack(secret, now - 301, body), body, now)).toBe(
      'X-Slack-Request-Timestamp is more than five minutes from now',
    );
    expect(slackRequestFault(secret, signedBySlack(secret, now, body), `${body} `, now)).toBe(
      'X-Slack-Signature does not match the body',
    );
    expect(slackRequestFault(secret, signedBySlack('other', now, body), body, now)).toBe(
      'X-Slack-Signature does not match the body',
    );
    expect(slackRequestFault(secret, {}, body, now)).toBe(
      'X-Slack-Request-Timestamp is missing or not a number',
    );
  });
});
