import { MigrationInterface, QueryRunner } from 'typeorm';

import { AUDIT_SCHEMA } from '../tokens';

/**
 * A27: the telemetry trace view lists the audit events that name its trace; only hops that came
 * with a `traceparent` carry one, so the index holds those alone.
 */
export class IndexEventsByTraceId1765270100000 implements MigrationInterface {
  name = 'IndexEventsByTraceId1765270100000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE INDEX events_tenant_trace ON ${AUDIT_SCHEMA}.events (tenant_id, trace_id) WHERE trace_id IS NOT NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX IF EXISTS ${AUDIT_SCHEMA}.events_tenant_trace`);
  }
}
