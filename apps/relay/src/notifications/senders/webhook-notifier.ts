import { Injectable } from '@nestjs/common';

import { SendOutcome } from '../notification.types';
import { standardWebhookHeaders } from '../standard-webhook-signature';
import { NotificationHttp } from './notification-http';

/** D58, W16: Standard Webhooks signing with the delivery id as `webhook-id`. */
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
