import { Injectable } from '@nestjs/common';

import { SendOutcome } from '../notification.types';
import { standardWebhookHeaders } from '../standard-webhook-signature';
import { NotificationHttp } from './notification-http';

/**
 * A WEBHOOK target (D58): the stored body POSTed as JSON, signed as Standard Webhooks says with
 * the attempt's timestamp and the delivery id as `webhook-id` (W16). A 2xx is delivered.
 */
@Injectable()
export class WebhookNotifier {
  constructor(private readonly http: NotificationHttp) {}

  send(
    config: { url: string },
    secret: string,
    deliveryId: string,
    correlationId: string,
    body: string,
  ): Promise<SendOutcome> {
    const timestamp = Math.floor(Date.now() / 1000);
    return this.http.post(
      config.url,
      {
        'content-type': 'application/json',
        'x-correlation-id': correlationId,
        ...standardWebhookHeaders(secret, deliveryId, timestamp, body),
      },
      body,
      ({ statusCode }) =>
        statusCode >= 200 && statusCode < 300 ? undefined : `the receiver answered ${statusCode}`,
    );
  }
}
