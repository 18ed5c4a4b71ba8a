import { DynamicModule, Module } from '@nestjs/common';

import { McpServersModule } from '../mcp-servers/mcp-servers.module';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookFanOut } from './webhook-fan-out';
import { WebhookRetentionJob } from './webhook-retention.job';
import { WebhookSender } from './webhook-sender';
import { WebhookSettingsRepository } from './webhook-settings.repository';
import { WebhookSettingsService } from './webhook-settings.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksListener } from './webhooks.listener';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

/**
 * Signed webhooks to agents (D19, issue 14): the relay owns them because it owns the agents'
 * registry entries they hang off, consumes every event they announce, and already reaches
 * outward under D37 (docs/decisions/webhooks.md). Exports the settings service the agents' PATCH
 * sets the URL through.
 */
@Module({})
export class WebhooksModule {
  static forRoot(options: WebhookOptions): DynamicModule {
    return {
      module: WebhooksModule,
      // The agents' PATCH (AgentsModule) sets the URL through WebhookSettingsService.
      global: true,
      imports: [McpServersModule],
      controllers: [WebhooksController],
      providers: [
        { provide: WEBHOOK_OPTIONS, useValue: options },
        WebhookSettingsRepository,
        WebhookSettingsService,
        WebhookDeliveriesRepository,
        WebhookDeliveriesService,
        WebhookFanOut,
        WebhooksListener,
        WebhookSender,
        WebhookDispatcher,
        WebhookRetentionJob,
      ],
      // The A2A push receiver (traffic.md T43) queues its deliveries through the repository;
      // relay-jobs.ts schedules the retention; notifications share the options (W20).
      exports: [
        WEBHOOK_OPTIONS,
        WebhookSettingsService,
        WebhookDeliveriesRepository,
        WebhookRetentionJob,
      ],
    };
  }
}
