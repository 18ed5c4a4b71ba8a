import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEvent, audienceOf, webhookBody } from './webhook-events';

/** One delivery per agent an event touches that has a webhook (D19), written in the event's transaction. */
@Injectable()
export class WebhookFanOut {
  constructor(private readonly deliveries: WebhookDeliveriesRepository) {}

  async apply(event: WebhookEvent, tx: Tx): Promise<void> {
    const agentIds = await this.deliveries.recipients(
      tx,
      event.tenantId,
      audienceOf(event),
      event.occurredAt,
    );
    await this.deliveries.insert(
      tx,
      event.tenantId,
      event,
      agentIds.map((agentId) => {
        const id = randomUUID();
        return { id, agentId, payload: webhookBody(event, id, agentId) };
      }),
    );
  }
}
