import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

import { Inject, Injectable } from '@nestjs/common';
import { createTransport } from 'nodemailer';

import { EgressOptions, checkEgressAddress } from '../../common/egress-policy';
import { EGRESS_OPTIONS } from '../../config/relay-config.module';
import { WEBHOOK_OPTIONS, WebhookOptions } from '../../webhooks/webhooks.options';
import { NotificationBody, emailMessage } from '../notification-messages';
import { SendOutcome } from '../notification.types';
import { NOTIFICATION_OPTIONS, NotificationOptions } from '../notifications.options';

export interface EmailConfig {
  host: string;
  port: number;
  from: string;
  to: string[];
  username?: string;
}

/**
 * D58, W19: STARTTLS required with credentials (no password in clear); D37: the checked address
 * is dialled, so no second lookup an attacker's DNS could answer differently.
 */
@Injectable()
export class EmailNotifier {
  constructor(
    @Inject(EGRESS_OPTIONS) private readonly egress: EgressOptions,
    @Inject(WEBHOOK_OPTIONS) private readonly webhooks: WebhookOptions,
    @Inject(NOTIFICATION_OPTIONS) private readonly options: NotificationOptions,
  ) {}

  async send(
    config: EmailConfig,
    password: string | undefined,
    body: NotificationBody,
  ): Promise<SendOutcome> {
    const attemptedAt = new Date();
    const started = performance.now();
    const outcome = (rest: Partial<SendOutcome>): SendOutcome => ({
      attemptedAt,
      durationMs: Math.round(performance.now() - started),
      ...rest,
    });
    try {
      const address = await this.checkedAddress(config.host);
      const hasCredentials = config.username !== undefined;
      const timeout = this.webhooks.timeoutMs;
      const transport = createTransport({
        host: address,
        port: config.port,
        secure: config.port === 465,
        requireTLS: hasCredentials,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
        tls: {
          ...(isIP(config.host) ? {} : { servername: config.host }),
          ...(this.options.smtpCa ? { ca: this.options.smtpCa } : {}),
          minVersion: 'TLSv1.2',
        },
        ...(hasCredentials ? { auth: { user: config.username!, pass: password ?? '' } } : {}),
      });
      const message = emailMessage(body);
      try {
        const sent = await transport.sendMail({
          from: config.from,
          to: config.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers: { 'X-Agp-Notification-Id': body.id, 'X-Agp-Notification-Type': body.type },
        });
        const rejected = sent.rejected.map(String);
        return outcome(
          rejected.length > 0 ? { error: `the server refused ${rejected.join(', ')}` } : {},
        );
      } finally {
        transport.close();
      }
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      return outcome({
        ...(code ? { statusCode: code } : {}),
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private async checkedAddress(host: string): Promise<string> {
    const addresses = await lookup(host, { all: true });
    const refusal = addresses
      .map((a) => checkEgressAddress(a.address, this.egress))
      .find((why) => why !== null);
    if (refusal || addresses.length === 0) {
      throw new Error(`egress refused (D37): ${refusal ?? `${host} resolves to nothing`}`);
    }
    return addresses[0].address;
  }
}
