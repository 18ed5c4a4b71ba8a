import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * Human review (D34, issue 12): a held hop, what a person decided, and whether it was released.
 * `message` is the hop as its decision left it (masked), the one thing ever delivered; `resend_digest`
 * is what a resend with `X-Agp-Hitl-Request-Id` must match to release it.
 */
export class CreateHitlRequestsTable1763790500000 implements MigrationInterface {
  name = 'CreateHitlRequestsTable1763790500000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.hitl_requests (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        status text NOT NULL,
        protocol text NOT NULL,
        direction text NOT NULL,
        agent_id uuid NOT NULL,
        source jsonb NOT NULL,
        sink jsonb NOT NULL,
        method text,
        tool text,
        message jsonb NOT NULL,
        resend_digest text NOT NULL,
        reasons jsonb NOT NULL DEFAULT '[]',
        policy_ids uuid[] NOT NULL DEFAULT '{}',
        decision_id uuid NOT NULL,
        correlation_id text NOT NULL,
        expires_at timestamptz NOT NULL,
        decided_by uuid,
        decided_by_label text,
        decided_at timestamptz,
        note text,
        released_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE INDEX hitl_requests_tenant_status ON ${s}.hitl_requests (tenant_id, status, created_at DESC)`,
    );
    await runner.query(
      `CREATE INDEX hitl_requests_pending_expiry ON ${s}.hitl_requests (expires_at) WHERE status = 'PENDING'`,
    );
    await enableTenantRls(runner, `${s}.hitl_requests`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await disableTenantRls(runner, `${RELAY_SCHEMA}.hitl_requests`);
    await runner.query(`DROP TABLE ${RELAY_SCHEMA}.hitl_requests`);
  }
}
