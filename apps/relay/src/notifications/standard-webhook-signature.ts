import { newStandardWebhookSecret } from '../channels/channel-config';
import { standardSignature, standardWebhookHeaders } from '../traffic/channels/standard-webhooks';

// W16: notifications sign as the WEBHOOK channel does (CH7); one implementation of the scheme.
export { newStandardWebhookSecret, standardWebhookHeaders };

/** W2: a notification target's secret is always a `whsec_` one, so anything else is refused. */
export function standardWebhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  if (!secret.startsWith('whsec_')) {
    throw new Error('a Standard Webhooks secret starts with whsec_');
  }
  return standardSignature(secret, id, timestamp, body);
}
