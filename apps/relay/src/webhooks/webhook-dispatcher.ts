import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { ClaimLoop, ClaimLoopWorker } from '@agp/jobs';
import { Logger } from 'pino';

import { RELAY_DATABASE } from '../database/tokens';
import { CredentialCipher } from '../mcp-servers/credential-cipher';
import { ClaimedDelivery } from './webhook-delivery.types';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { nextState } from './webhook-schedule';
import { WebhookSender } from './webhook-sender';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

/**
 * F30: rows leased with `SKIP LOCKED`, sent once across replicas; the lease outlives the longest
 * attempt, and a resend after a death keeps the delivery id (receivers deduplicate on it).
 */
@Injectable()
export class WebhookDispatcher extends ClaimLoopWorker<ClaimedDelivery> {
  protected readonly loop: ClaimLoop<ClaimedDelivery>;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly sender: WebhookSender,
    private readonly cipher: CredentialCipher,
  ) {
    super();
    // Connect, answer and body each have the timeout; the margin covers recording the outcome.
    const leaseMs = options.timeoutMs * 3 + 30_000;
    this.loop = new ClaimLoop({
      name: 'webhooks',
      pollIntervalMs: options.pollIntervalMs,
      claim: () =>
        this.database.asSystem((tx) => this.deliveries.claimDue(tx, options.concurrency, leaseMs)),
      handle: (delivery) => this.deliver(delivery),
      logger,
    });
  }

  private async deliver(claimed: ClaimedDelivery): Promise<void> {
    try {
      const unreachable = whyUndeliverable(claimed);
      if (unreachable) {
        await this.database.asSystem((tx) => this.deliveries.abandon(tx, claimed, unreachable));
        return;
      }
      let secrets: string[];
      let headers: Record<string, string> | undefined;
      try {
        secrets = claimed.secretCiphertexts.map((sealed) => this.cipher.decrypt(sealed));
        headers = claimed.headersCiphertext
          ? (JSON.parse(this.cipher.decrypt(claimed.headersCiphertext)) as Record<string, string>)
          : undefined;
      } catch (error) {
        const why = `the signing secret cannot be opened: ${(error as Error).message}`;
        await this.database.asSystem((tx) => this.deliveries.abandon(tx, claimed, why));
        return;
      }
      const outcome = await this.sender.send({
        url: claimed.url!,
        deliveryId: claimed.id,
        eventType: claimed.eventType,
        correlationId: claimed.correlationId,
        body: claimed.payload,
        secrets,
        ...(headers ? { headers } : {}),
      });
      const isDelivered = outcome.error === undefined;
      const next = nextState(
        isDelivered,
        claimed.roundAttempts + 1,
        this.options.schedule,
        new Date(),
      );
      await this.database.asSystem((tx) =>
        this.deliveries.recordAttempt(tx, claimed, outcome, next),
      );
    } catch (error) {
      // The lease runs out and the delivery is tried again: nothing is lost.
      this.logger.error({ err: error, deliveryId: claimed.id }, 'webhooks: delivery not recorded');
    }
  }
}

function whyUndeliverable(claimed: ClaimedDelivery): string | undefined {
  if (claimed.agentStatus === undefined || claimed.agentStatus === 'DELETED') {
    return 'the agent no longer exists';
  }
  if (!claimed.url || claimed.secretCiphertexts.length === 0) {
    return 'the agent has no webhook any more';
  }
  return undefined;
}
