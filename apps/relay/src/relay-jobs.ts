import { schedulerProvider } from '@agp/jobs';

import { RELAY_DATABASE } from './database/tokens';
import { EvaluationScheduleJob } from './evaluation-packs/evaluation-schedule.job';
import { HitlExpiryJob } from './hitl/hitl-expiry.job';
import { PushConfigRetentionJob } from './traffic/a2a/push/push-config-retention.job';
import { ChannelEventsRetentionJob } from './traffic/channels/channel-events-retention.job';
import { DisclosureRetentionJob } from './traffic/disclosure/disclosure-retention.job';
import { PolicyDiffRetentionJob } from './shadow/policy-diff-retention.job';
import { NotificationRetentionJob } from './notifications/notification-retention.job';
import { WebhookRetentionJob } from './webhooks/webhook-retention.job';

// F30: HITL expiry (D34) every 5 s, delivery retention hourly; dispatchers are claim loops.
export const relayJobs = schedulerProvider({
  provide: Symbol.for('agp:relay:jobs'),
  database: RELAY_DATABASE,
  inject: [
    HitlExpiryJob,
    WebhookRetentionJob,
    PolicyDiffRetentionJob,
    NotificationRetentionJob,
    ChannelEventsRetentionJob,
    EvaluationScheduleJob,
    DisclosureRetentionJob,
    PushConfigRetentionJob,
  ],
  jobs: (
    hitlExpiry: HitlExpiryJob,
    webhookRetention: WebhookRetentionJob,
    policyDiffRetention: PolicyDiffRetentionJob,
    notificationRetention: NotificationRetentionJob,
    channelEventsRetention: ChannelEventsRetentionJob,
    evaluationSchedule: EvaluationScheduleJob,
    disclosureRetention: DisclosureRetentionJob,
    pushConfigRetention: PushConfigRetentionJob,
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
    // governance.md G13: scheduled evaluation pack runs, each minute.
    {
      name: 'relay-evaluation-schedules',
      intervalMs: 60_000,
      work: () => evaluationSchedule.tick(),
    },
    // traffic.md T71: disclosures past their 90 days (the conversation is told again).
    {
      name: 'relay-disclosure-retention',
      intervalMs: 3_600_000,
      work: () => disclosureRetention.tick(),
    },
    // traffic.md T113: push configurations of ended or abandoned tasks.
    {
      name: 'relay-push-config-retention',
      intervalMs: 3_600_000,
      work: () => pushConfigRetention.tick(),
    },
  ],
});
