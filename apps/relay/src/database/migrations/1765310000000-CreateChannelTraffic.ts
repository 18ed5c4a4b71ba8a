import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * Channels talk to agents (D43, D56, channels.md CH1–CH6): a channel keeps its kind's settings
 * (`config`) and its sealed secrets (D37: a Slack signing secret and bot token, a webhook's
 * `whsec_` secret, a web chat's key); every inbound event is a row, unique per channel by the
 * platform's own event id, so a retried delivery is one event on every replica (CH3), and the
 * row is the background work's state (CH4).
 */
export class CreateChannelTraffic1765310000000 implements MigrationInterface {
  name = 'CreateChannelTraffic1765310000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`ALTER TABLE ${s}.channels ADD COLUMN config jsonb`);
    await runner.query(`ALTER TABLE ${s}.channels ADD COLUMN secrets_ciphertext text`);
    await runner.query(`
      CREATE TABLE ${s}.channel_events (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        channel_id uuid NOT NULL REFERENCES ${s}.channels (id) ON DELETE CASCADE,
        external_id text NOT NULL,
        correlation_id uuid NOT NULL,
        message jsonb NOT NULL,
        status text NOT NULL DEFAULT 'PENDING',
        reply jsonb,
        hitl_request_id uuid,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (channel_id, external_id)
      )`);
    await runner.query(
      `CREATE INDEX channel_events_due ON ${s}.channel_events (next_attempt_at)
        WHERE status IN ('PENDING', 'REPLYING')`,
    );
    await enableTenantRls(runner, `${s}.channel_events`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await disableTenantRls(runner, `${s}.channel_events`);
    await runner.query(`DROP TABLE ${s}.channel_events`);
    await runner.query(`ALTER TABLE ${s}.channels DROP COLUMN secrets_ciphertext`);
    await runner.query(`ALTER TABLE ${s}.channels DROP COLUMN config`);
  }
}
