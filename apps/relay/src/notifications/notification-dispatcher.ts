import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { ClaimLoop, ClaimLoopWorker } from '@agp/jobs';
import { Logger } from 'pino';

import { RELAY_DATABASE } from '../database/tokens';
import { CredentialCipher } from '../mcp-servers/credential-cipher';
import { nextState } from '../webhooks/webhook-schedule';
import { WEBHOOK_OPTIONS, WebhookOptions } from '../webhooks/webhooks.options';
import { NotificationBody } from './notification-messages';
import { NotificationDeliveriesRepository } from './notification-deliveries.repository';
import { ClaimedNotification, SendOutcome } from './notification.types';
import { EmailConfig, EmailNotifier } from './senders/email-notifier';
import { SlackConfig, SlackNotifier } from './senders/slack-notifier';
import { WebhookNotifier } from './senders/webhook-notifier';

/**
 * F38, W8, W21: rows are the state and leased to one replica, so a restart loses nothing and a
 * delivery is sent once (again only after a mid-send death, same id). Retries as W6, W20.
 */
@Injectable()
export class NotificationDispatcher extends ClaimLoopWorker<ClaimedNotification> {
  protected readonly loop: ClaimLoop<ClaimedNotification>;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly deliveries: NotificationDeliveriesRepository,
    private readonly cipher: CredentialCipher,
    private readonly webhook: WebhookNotifier,
    private readonly slack: SlackNotifier,
    private readonly email: EmailNotifier,
  ) {
    super();
    // SMTP has a connect, a greeting and a socket timeout each, plus STARTTLS: a wide margin.
    const leaseMs = options.timeoutMs * 4 + 30_000;
    this.loop = new ClaimLoop({
      name: 'notifications',
      pollIntervalMs: options.pollIntervalMs,
      claim: () =>
        this.database.asSystem((tx) => this.deliveries.claimDue(tx, options.concurrency, leaseMs)),
      handle: (claimed) => this.deliver(claimed),
      logger,
    });
  }

  private async deliver(claimed: ClaimedNotification): Promise<void> {
    try {
      const target = claimed.target;
      if (!target?.isEnabled) {
        const why = target ? 'the target is disabled' : 'the target no longer exists';
        await this.database.asSystem((tx) => this.deliveries.abandon(tx, claimed, why));
        return;
      }
      let secrets: Record<string, string>;
      try {
        secrets = JSON.parse(this.cipher.decrypt(target.secretsCiphertext)) as Record<
          string,
          string
        >;
      } catch (error) {
        const why = `the target's credentials cannot be opened: ${(error as Error).message}`;
        await this.database.asSystem((tx) => this.deliveries.abandon(tx, claimed, why));
        return;
      }
      const outcome = await this.send(claimed, target.kind, target.config, secrets);
      const next = nextState(
        outcome.error === undefined,
        claimed.roundAttempts + 1,
        this.options.schedule,
        new Date(),
      );
      await this.database.asSystem((tx) =>
        this.deliveries.recordAttempt(tx, claimed, outcome, next),
      );
    } catch (error) {
      // The lease runs out and the delivery is tried again: nothing is lost.
      this.logger.error(
        { err: error, deliveryId: claimed.id },
        'notifications: delivery not recorded',
      );
    }
  }

  private send(
    claimed: ClaimedNotification,
    kind: 'EMAIL' | 'SLACK' | 'WEBHOOK',
    config: Record<string, unknown>,
    secrets: Record<string, string>,
  ): Promise<SendOutcome> {
    const body = JSON.parse(claimed.payload) as NotificationBody;
    switch (kind) {
      case 'WEBHOOK':
        return this.webhook.send(
          config as { url: string },
          secrets.secret ?? '',
          claimed.id,
          claimed.correlationId,
          claimed.payload,
        );
      case 'SLACK':
        return this.slack.send(config as unknown as SlackConfig, secrets.botToken ?? '', body);
      case 'EMAIL':
        return this.email.send(config as unknown as EmailConfig, secrets.password, body);
    }
  }
}
