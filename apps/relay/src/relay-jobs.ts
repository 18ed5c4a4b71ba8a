import { schedulerProvider } from '@agp/jobs';

import { RELAY_DATABASE } from './database/tokens';
import { HitlExpiryJob } from './hitl/hitl-expiry.job';
import { ChannelEventsRetentionJob } from './traffic/channels/channel-events-retention.job';
import { PolicyDiffRetentionJob } from './shadow/policy-diff-retention.job';
import { NotificationRetentionJob } from './notifications/notification-retention.job';
import { WebhookRetentionJob } from './webhooks/webhook-retention.job';

/**
 * The relay's scheduled work, each once per interval across replicas (F30): holds past their
 * `expiresAt` (D34) every 5 seconds, settled webhook and notification deliveries past their
 * retention every hour. The evaluation runs, webhook and notification deliveries are claim loops
 * of their own (`RunExecutor`, `WebhookDispatcher`, `NotificationDispatcher`).
 */
export const relayJobs = schedulerProvider({
  provide: Symbol.for('agp:relay:jobs'),
  database: RELAY_DATABASE,
  inject: [
    HitlExpiryJob,
    WebhookRetentionJob,
    PolicyDiffRetentionJob,
    NotificationRetentionJob,
    ChannelEventsRetentionJob,
  ],
  jobs: (
    hitlExpiry: HitlExpiryJob,
    webhookRetention: WebhookRetentionJob,
    policyDiffRetention: PolicyDiffRetentionJob,
    notificationRetention: NotificationRetentionJob,
    channelEventsRetention: ChannelEventsRetentionJob,
  ) => [
    { name: 'relay-hitl-expiry', intervalMs: 5_000, work: () => hitlExpiry.tick() },
    {
      name: 'relay-webhook-retention',
      intervalMs: 3_600_000,
      work: () => webhookRetention.tick(),
    },
    // governance.md G11: shadow judgements and finished replays past their 30 days.
    {
      name: 'relay-policy-diff-retention',
      intervalMs: 3_600_000,
      work: () => policyDiffRetention.tick(),
    },
    {
      name: 'relay-notification-retention',
      intervalMs: 3_600_000,
      work: () => notificationRetention.tick(),
    },
    // channels.md CH13: settled channel events past their 7 days.
    {
      name: 'relay-channel-event-retention',
      intervalMs: 3_600_000,
      work: () => channelEventsRetention.tick(),
    },
  ],
});
