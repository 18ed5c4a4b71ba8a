import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { AUDIT_SCHEMA } from '../tokens';

const S = AUDIT_SCHEMA;
const DAY_MS = 86_400_000;
const TENANT_TABLES = [
  'events',
  'chain_heads',
  'chain_anchors',
  'checkpoints',
  'retention_policies',
];

/**
 * The audit trail (issue 5): events partitioned by day of `occurred_at` (the primary key must hold
 * the partition key; `occurred_at` comes from the envelope, so (id, occurred_at) is stable across
 * redeliveries and makes ingest idempotent), per tenant and family hash chains, signed checkpoints,
 * signing keys and retention policies.
 */
export class CreateAuditTables1763790000000 implements MigrationInterface {
  name = 'CreateAuditTables1763790000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${S}.events (
        id uuid NOT NULL,
        tenant_id uuid NOT NULL,
        family text NOT NULL,
        seq bigint NOT NULL,
        occurred_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL,
        event_type text NOT NULL,
        protocol text,
        action text,
        actor_type text,
        actor_id text,
        actor_label text,
        source_type text,
        source_id text,
        source_name text,
        sink_type text,
        sink_id text,
        sink_name text,
        policy_ids uuid[] NOT NULL DEFAULT '{}',
        decision jsonb,
        correlation_id text,
        trace_id text,
        span_id text,
        summary text,
        details jsonb,
        content text,
        content_digest text,
        hash bytea NOT NULL,
        PRIMARY KEY (id, occurred_at)
      ) PARTITION BY RANGE (occurred_at)`);
    await runner.query(
      `CREATE INDEX events_tenant_time ON ${S}.events (tenant_id, occurred_at DESC, id DESC)`,
    );
    await runner.query(
      `CREATE INDEX events_tenant_chain ON ${S}.events (tenant_id, family, seq, id)`,
    );
    await runner.query(
      `CREATE INDEX events_tenant_correlation ON ${S}.events (tenant_id, correlation_id)`,
    );
    // Daily partitions from yesterday to a week ahead, written out here rather than imported from
    // the runtime's partitions.ts: a migration keeps the shape it had when it was written (F36).
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    for (let day = -1; day <= 7; day += 1) {
      const from = new Date(today + day * DAY_MS);
      const to = new Date(from.getTime() + DAY_MS);
      const partition = `${S}.events_p${from.toISOString().slice(0, 10).replace(/-/g, '')}`;
      await runner.query(
        `CREATE TABLE ${partition} PARTITION OF ${S}.events FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
      );
      await enableTenantRls(runner, partition);
    }
    await runner.query(`
      CREATE TABLE ${S}.chain_heads (
        tenant_id uuid NOT NULL,
        family text NOT NULL,
        seq bigint NOT NULL,
        hash bytea NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, family)
      )`);
    await runner.query(`
      CREATE TABLE ${S}.chain_anchors (
        tenant_id uuid NOT NULL,
        family text NOT NULL,
        seq bigint NOT NULL,
        hash bytea NOT NULL,
        checkpoint_id uuid NOT NULL,
        anchored_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, family)
      )`);
    await runner.query(`
      CREATE TABLE ${S}.signing_keys (
        kid text PRIMARY KEY,
        public_jwk jsonb NOT NULL,
        private_key_encrypted text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE ${S}.checkpoints (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        created_at timestamptz NOT NULL,
        kid text NOT NULL REFERENCES ${S}.signing_keys (kid),
        heads jsonb NOT NULL,
        jws text NOT NULL
      )`);
    await runner.query(
      `CREATE INDEX checkpoints_tenant_time ON ${S}.checkpoints (tenant_id, created_at)`,
    );
    await runner.query(`
      CREATE TABLE ${S}.retention_policies (
        tenant_id uuid PRIMARY KEY,
        days jsonb NOT NULL,
        capture_content boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Scheduled work claims a tick here, so each tick runs once across replicas.
    await runner.query(
      `CREATE TABLE ${S}.job_runs (job text PRIMARY KEY, ran_at timestamptz NOT NULL)`,
    );
    for (const table of TENANT_TABLES) {
      await enableTenantRls(runner, `${S}.${table}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of TENANT_TABLES) {
      await disableTenantRls(runner, `${S}.${table}`);
    }
    for (const table of [
      'job_runs',
      'retention_policies',
      'checkpoints',
      'signing_keys',
      'chain_anchors',
      'chain_heads',
      'events',
    ]) {
      await runner.query(`DROP TABLE IF EXISTS ${S}.${table} CASCADE`);
    }
  }
}
