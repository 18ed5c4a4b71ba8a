import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { AUDIT_SCHEMA } from '../tokens';

const S = AUDIT_SCHEMA;
const COUNTERS = [
  'requests',
  'blocks',
  'warns',
  'masks',
  'hitl_holds',
  'errors',
  'llm_calls',
  'llm_failovers',
  'tool_calls',
  'mcp_requests',
  'traffic',
  'user_events',
  'agent_events',
];

/**
 * M29: the custom monitors' per-minute cells, one per tenant, grouping, group and minute (epoch
 * minutes), holding what every metric of M21 is made of, kept by the ingest in its transaction.
 * The key leads with (tenant, grouping, minute): a tick reads one grouping's range of minutes.
 * `monitor_series_start` records when the cells began: events stored before are in no cell, so a
 * window that starts earlier is still read as before (M26, M27) rather than backfilled here.
 */
export class CreateMonitorSeries1763804100000 implements MigrationInterface {
  name = 'CreateMonitorSeries1763804100000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${S}.monitor_series (
        tenant_id uuid NOT NULL,
        group_by text NOT NULL,
        group_key text NOT NULL,
        minute integer NOT NULL,
        ${COUNTERS.map((column) => `${column} integer NOT NULL DEFAULT 0`).join(',\n        ')},
        latency_sum double precision NOT NULL DEFAULT 0,
        latencies double precision[] NOT NULL DEFAULT '{}',
        users text[] NOT NULL DEFAULT '{}',
        agents text[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (tenant_id, group_by, minute, group_key)
      )`);
    await enableTenantRls(runner, `${S}.monitor_series`);
    await runner.query(`
      CREATE TABLE ${S}.monitor_series_start (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        started_at timestamptz NOT NULL
      )`);
    await runner.query(`INSERT INTO ${S}.monitor_series_start (started_at) VALUES (now())`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${S}.monitor_series_start`);
    await disableTenantRls(runner, `${S}.monitor_series`);
    await runner.query(`DROP TABLE ${S}.monitor_series`);
  }
}
