import { Webhook } from 'standardwebhooks';

import { newStandardWebhookSecret } from '../../channels/channel-config';
import { standardWebhookFault, standardWebhookHeaders } from './standard-webhooks';

/** The `standardwebhooks` package, the specification's own implementation, as the other side. */
describe('Standard Webhooks signing (channels.md CH7)', () => {
  const secret = newStandardWebhookSecret();
  const body = JSON.stringify({ text: 'hello', threadId: 't-1' });
  const now = Math.floor(Date.now() / 1000);

  it('should sign so that the standardwebhooks package verifies the message', () => {
    const headers = standardWebhookHeaders(secret, 'msg_1', now, body);

    const verified = new Webhook(secret).verify(body, headers);

    expect(verified).toEqual(JSON.parse(body));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('should verify what the standardwebhooks package signs, and refuse a changed body', () => {
    const signature = new Webhook(secret).sign('msg_2', new Date(now * 1000), body);
    const headers = {
      'webhook-id': 'msg_2',
      'webhook-timestamp': String(now),
      'webhook-signature': signature,
    };

    expect(standardWebhookFault(secret, headers, body, now)).toBeUndefined();
    expect(standardWebhookFault(secret, headers, body.replace('hello', 'hullo'), now)).toBe(
      'webhook-signature does not match the body',
    );
    expect(standardWebhookFault(newStandardWebhookSecret(), headers, body, now)).toBe(
      'webhook-signature does not match the body',
    );
  });

  it('should accept any v1 signature of a rotation’s list and refuse a stale timestamp', () => {
    const signature = new Webhook(secret).sign('msg_3', new Date(now * 1000), body);
    const headers = {
      'webhook-id': 'msg_3',
      'webhook-timestamp': String(now),
      'webhook-signature': `v1,AAAA ${signature}`,
    };

    expect(standardWebhookFault(secret, headers, body, now)).toBeUndefined();
    expect(standardWebhookFault(secret, headers, body, now + 301)).toBe(
      'webhook-timestamp is more than five minutes from now',
    );
    expect(standardWebhookFault(secret, { ...headers, 'webhook-id': undefined }, body, now)).toBe(
      'webhook-id is missing',
    );
  });
});
