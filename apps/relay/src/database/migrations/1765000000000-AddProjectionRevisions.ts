import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

const PROJECTIONS = ['agents', 'users', 'tenants'];

/**
 * Issue 30: the projections of tenant-auth's identities keep the owner's revision of what they
 * hold, so an event or an owner answer applies only when it is newer (null: held before revisions,
 * or from a producer without them).
 */
export class AddProjectionRevisions1765000000000 implements MigrationInterface {
  name = 'AddProjectionRevisions1765000000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const table of PROJECTIONS) {
      await runner.query(`ALTER TABLE ${RELAY_SCHEMA}.${table} ADD COLUMN source_revision integer`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of PROJECTIONS) {
      await runner.query(`ALTER TABLE ${RELAY_SCHEMA}.${table} DROP COLUMN source_revision`);
    }
  }
}
