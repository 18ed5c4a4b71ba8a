import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'tenant_auth';
const TABLES = ['tenants', 'users', 'clients'];

/**
 * Issue 30: each identity other services project carries a revision, raised by every change
 * (TypeORM's version column) and sent with its lifecycle events and owner answers, so a projection
 * applies only what is newer than what it holds.
 */
export class AddIdentityRevisions1765000000000 implements MigrationInterface {
  name = 'AddIdentityRevisions1765000000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await runner.query(
        `ALTER TABLE ${S}.${table} ADD COLUMN revision integer NOT NULL DEFAULT 1`,
      );
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await runner.query(`ALTER TABLE ${S}.${table} DROP COLUMN revision`);
    }
  }
}
