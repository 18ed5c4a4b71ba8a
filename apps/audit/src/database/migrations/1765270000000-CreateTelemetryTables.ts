import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { addDays, createPartitionStatements, dayStart } from '../../events/partitions';
import { AUDIT_SCHEMA } from '../tokens';

const S = AUDIT_SCHEMA;
const PARTITIONED = ['telemetry_spans', 'telemetry_logs'];

/**
 * Telemetry (issue 37, D46, D54): agents' spans and log records, partitioned by day of their time
 * like the audit trail (A24), and the per-minute ingest counts of each tenant's quota (A25).
 * `sender_kind`/`sender_id` are the token's caller, never what the payload claims (A22). No unique
 * key: an exporter's retry may store a span twice, and reads keep one per (trace, span) (A23).
 */
export class CreateTelemetryTables1765270000000 implements MigrationInterface {
  name = 'CreateTelemetryTables1765270000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE SEQUENCE ${S}.telemetry_row_ids`);
    await runner.query(`
      CREATE TABLE ${S}.telemetry_spans (
        id bigint NOT NULL DEFAULT nextval('${S}.telemetry_row_ids'),
        tenant_id uuid NOT NULL,
        sender_kind text NOT NULL,
        sender_id text NOT NULL,
        received_at timestamptz NOT NULL,
        trace_id text NOT NULL,
        span_id text NOT NULL,
        parent_span_id text,
        trace_state text,
        flags integer NOT NULL DEFAULT 0,
        name text NOT NULL,
        kind smallint NOT NULL DEFAULT 0,
        start_time timestamptz NOT NULL,
        start_unix_nano bigint NOT NULL,
        end_unix_nano bigint NOT NULL,
        status_code smallint NOT NULL DEFAULT 0,
        status_message text,
        service_name text,
        attributes jsonb NOT NULL DEFAULT '{}',
        resource_attributes jsonb NOT NULL DEFAULT '{}',
        scope jsonb,
        events jsonb,
        links jsonb,
        dropped jsonb
      ) PARTITION BY RANGE (start_time)`);
    await runner.query(
      `CREATE INDEX telemetry_spans_tenant_time ON ${S}.telemetry_spans (tenant_id, start_time DESC, id DESC)`,
    );
    await runner.query(
      `CREATE INDEX telemetry_spans_tenant_trace ON ${S}.telemetry_spans (tenant_id, trace_id)`,
    );
    await runner.query(`
      CREATE TABLE ${S}.telemetry_logs (
        id bigint NOT NULL DEFAULT nextval('${S}.telemetry_row_ids'),
        tenant_id uuid NOT NULL,
        sender_kind text NOT NULL,
        sender_id text NOT NULL,
        received_at timestamptz NOT NULL,
        log_time timestamptz NOT NULL,
        time_unix_nano bigint NOT NULL,
        observed_unix_nano bigint NOT NULL,
        severity_number smallint NOT NULL DEFAULT 0,
        severity_text text,
        event_name text,
        body jsonb,
        trace_id text,
        span_id text,
        flags integer NOT NULL DEFAULT 0,
        service_name text,
        attributes jsonb NOT NULL DEFAULT '{}',
        resource_attributes jsonb NOT NULL DEFAULT '{}',
        scope jsonb,
        dropped_attributes integer NOT NULL DEFAULT 0
      ) PARTITION BY RANGE (log_time)`);
    await runner.query(
      `CREATE INDEX telemetry_logs_tenant_time ON ${S}.telemetry_logs (tenant_id, log_time DESC, id DESC)`,
    );
    await runner.query(
      `CREATE INDEX telemetry_logs_tenant_trace ON ${S}.telemetry_logs (tenant_id, trace_id)`,
    );
    const today = dayStart(new Date());
    for (const table of PARTITIONED) {
      for (let day = -1; day <= 7; day += 1) {
        for (const statement of createPartitionStatements(S, addDays(today, day), table)) {
          await runner.query(statement);
        }
      }
    }
    await runner.query(`
      CREATE TABLE ${S}.telemetry_usage (
        tenant_id uuid NOT NULL,
        window_start timestamptz NOT NULL,
        items bigint NOT NULL,
        PRIMARY KEY (tenant_id, window_start)
      )`);
    for (const table of [...PARTITIONED, 'telemetry_usage']) {
      await enableTenantRls(runner, `${S}.${table}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [...PARTITIONED, 'telemetry_usage']) {
      await disableTenantRls(runner, `${S}.${table}`);
      await runner.query(`DROP TABLE IF EXISTS ${S}.${table} CASCADE`);
    }
    await runner.query(`DROP SEQUENCE IF EXISTS ${S}.telemetry_row_ids`);
  }
}
