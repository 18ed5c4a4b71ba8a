import { DynamicModule, Module } from '@nestjs/common';

import { McpServersModule } from '../mcp-servers/mcp-servers.module';
import { NotificationDeliveriesRepository } from './notification-deliveries.repository';
import { NotificationDispatcher } from './notification-dispatcher';
import { NotificationFanOut } from './notification-fan-out';
import { NotificationRetentionJob } from './notification-retention.job';
import { NotificationTargetsController } from './notification-targets.controller';
import { NotificationTargetsRepository } from './notification-targets.repository';
import { NotificationTargetsService } from './notification-targets.service';
import { NotificationsListener } from './notifications.listener';
import { NOTIFICATION_OPTIONS, NotificationOptions } from './notifications.options';
import { EmailNotifier } from './senders/email-notifier';
import { NotificationHttp } from './senders/notification-http';
import { SlackNotifier } from './senders/slack-notifier';
import { WebhookNotifier } from './senders/webhook-notifier';

/** D58, issue 34 § 3, W13: shares the webhooks' delivery machinery and their global options. */
@Module({})
export class NotificationsModule {
  static forRoot(options: NotificationOptions): DynamicModule {
    return {
      module: NotificationsModule,
      imports: [McpServersModule],
      controllers: [NotificationTargetsController],
      providers: [
        { provide: NOTIFICATION_OPTIONS, useValue: options },
        NotificationTargetsRepository,
        NotificationDeliveriesRepository,
        NotificationTargetsService,
        NotificationFanOut,
        NotificationsListener,
        NotificationHttp,
        WebhookNotifier,
        SlackNotifier,
        EmailNotifier,
        NotificationDispatcher,
        NotificationRetentionJob,
      ],
      exports: [NotificationRetentionJob],
    };
  }
}
