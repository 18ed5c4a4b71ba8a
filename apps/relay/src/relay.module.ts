import { readFileSync } from 'node:fs';

import { DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@agp/database';
import { MessagingModule } from '@agp/messaging';

import { RelayConfigModule } from './config/relay-config.module';
import { RelayEnv } from './config/relay.env';
import { HopTracingOptions } from './traffic/tracing/hop-tracer';
import { relayDataSourceOptions } from './database/data-source';
import { RELAY_DATABASE, RELAY_SERVICE } from './database/tokens';
import { AgentsModule } from './agents/agents.module';
import { DiscoveryModule } from './discovery/discovery.module';
import { ChannelsModule } from './channels/channels.module';
import { ConversationsModule } from './conversations/conversations.module';
import { DecisionsModule } from './decisions/decisions.module';
import { DetectionPatternsModule } from './detection-patterns/detection-patterns.module';
import { ValidationModule } from './validation/validation.module';
import { EvaluationPacksModule } from './evaluation-packs/evaluation-packs.module';
import { GuardrailsModule } from './guardrails/guardrails.module';
import { GovernanceModule } from './governance/governance.module';
import { HitlModule } from './hitl/hitl.module';
import { KillSwitchesModule } from './kill-switches/kill-switches.module';
import { LlmGatewaysModule } from './llm-gateways/llm-gateways.module';
import { LlmProvidersModule } from './llm-providers/llm-providers.module';
import { MarketplaceModule } from './marketplace/marketplace.module';
import { McpServersModule } from './mcp-servers/mcp-servers.module';
import { NotificationsModule } from './notifications/notifications.module';
import { PoliciesModule } from './policies/policies.module';
import { PolicyPreviewModule } from './shadow/policy-preview.module';
import { relayJobs } from './relay-jobs';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { ProjectionsModule } from './projections/projections.module';
import { TenantsModule } from './tenants/tenants.module';
import { ChannelTrafficModule } from './traffic/channels/channel-traffic.module';
import { TrafficModule } from './traffic/traffic.module';
import { TrafficSettingsModule } from './traffic-settings/traffic-settings.module';
import { UsersModule } from './users/users.module';
import { DEFAULT_RETRY_SCHEDULE } from './webhooks/webhook-schedule';
import { WebhooksModule } from './webhooks/webhooks.module';

export type RelayModuleEnv = Pick<RelayEnv, 'NATS_URL' | 'NATS_PREFIX' | 'SECRETS_KEY'> &
  Partial<
    Pick<
      RelayEnv,
      | 'POLICY_CACHE_TTL_MS'
      | 'POLICY_EVAL_TIMEOUT_MS'
      | 'EVALUATION_RUN_POLL_MS'
      | 'EGRESS_ALLOW_PRIVATE'
      | 'PUBLIC_BASE_URL'
      | 'WEBHOOK_MAX_ATTEMPTS'
      | 'WEBHOOK_RETRY_BASE_MS'
      | 'WEBHOOK_TIMEOUT_MS'
      | 'WEBHOOK_POLL_MS'
      | 'WEBHOOK_RETENTION_DAYS'
      | 'NOTIFICATION_SMTP_CA_FILE'
      | 'RELAY_SPANS_SAMPLE_RATIO'
      | 'OTEL_EXPORTER_OTLP_ENDPOINT'
      | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
      | 'X402_FACILITATOR_URL'
    >
  > & { DATABASE_URL: string };

/** D2, D1, D4: imported by its own main.ts and by the one-process runner. */
@Module({})
export class RelayModule {
  static forRoot(env: RelayModuleEnv): DynamicModule {
    if (!env.SECRETS_KEY) {
      // D37: the embedded default passes the key it keeps in DATA_DIR (embeddedSecretsKey).
      throw new Error('invalid configuration: SECRETS_KEY is required (openssl rand -base64 32)');
    }
    return {
      module: RelayModule,
      imports: [
        RelayConfigModule.forRoot({
          secretsKey: env.SECRETS_KEY,
          egressAllowPrivate: env.EGRESS_ALLOW_PRIVATE ?? false,
          publicBaseUrl: env.PUBLIC_BASE_URL ?? 'http://localhost:8080',
          hopTracing: hopTracingOf(env),
          ...(env.X402_FACILITATOR_URL ? { x402FacilitatorUrl: env.X402_FACILITATOR_URL } : {}),
        }),
        DatabaseModule.forRoot({
          token: RELAY_DATABASE,
          ...relayDataSourceOptions(env.DATABASE_URL),
        }),
        MessagingModule.forService({ service: RELAY_SERVICE, databaseToken: RELAY_DATABASE }),
        DecisionsModule.forRoot({
          cacheTtlMs: env.POLICY_CACHE_TTL_MS ?? 60_000,
          evaluationTimeoutMs: env.POLICY_EVAL_TIMEOUT_MS ?? 50,
        }),
        ProjectionsModule,
        TenantsModule,
        UsersModule,
        AgentsModule,
        DiscoveryModule,
        McpServersModule,
        ChannelsModule,
        LlmGatewaysModule,
        LlmProvidersModule,
        PoliciesModule,
        PolicyPreviewModule,
        SubscriptionsModule,
        TrafficModule,
        ChannelTrafficModule,
        ConversationsModule,
        KillSwitchesModule,
        HitlModule,
        GovernanceModule,
        TrafficSettingsModule,
        EvaluationPacksModule.forRoot({ runPollIntervalMs: env.EVALUATION_RUN_POLL_MS ?? 5_000 }),
        GuardrailsModule,
        DetectionPatternsModule,
        MarketplaceModule,
        ValidationModule,
        WebhooksModule.forRoot({
          schedule: {
            ...DEFAULT_RETRY_SCHEDULE,
            maxAttempts: env.WEBHOOK_MAX_ATTEMPTS ?? DEFAULT_RETRY_SCHEDULE.maxAttempts,
            baseDelayMs: env.WEBHOOK_RETRY_BASE_MS ?? DEFAULT_RETRY_SCHEDULE.baseDelayMs,
          },
          timeoutMs: env.WEBHOOK_TIMEOUT_MS ?? 10_000,
          pollIntervalMs: env.WEBHOOK_POLL_MS ?? 1_000,
          concurrency: 8,
          retentionDays: env.WEBHOOK_RETENTION_DAYS ?? 30,
        }),
        NotificationsModule.forRoot({
          ...(env.NOTIFICATION_SMTP_CA_FILE
            ? { smtpCa: readFileSync(env.NOTIFICATION_SMTP_CA_FILE, 'utf8') }
            : {}),
        }),
      ],
      providers: [relayJobs],
    };
  }
}

/** traffic.md T93: spans only when a ratio above 0 is set; the collector only when named. */
function hopTracingOf(env: RelayModuleEnv): HopTracingOptions {
  const collector = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return {
    sampleRatio: env.RELAY_SPANS_SAMPLE_RATIO ?? 0,
    ...(collector ? { collectorEndpoint: collector } : {}),
  };
}
