import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'tenant_auth';

/** identity.md I27: when a dynamically registered client was last used, so unused ones can go. */
export class AddRegisteredClientUse1765260000000 implements MigrationInterface {
  name = 'AddRegisteredClientUse1765260000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.registered_clients ADD COLUMN last_used_at timestamptz`);
    // Clients registered before this column existed may be in use: counted as used now, so the
    // first prune does not take them (they go only after 90 idle days, like any other).
    await runner.query(`UPDATE ${S}.registered_clients SET last_used_at = now()`);
    await runner.query(
      `CREATE INDEX registered_clients_idle ON ${S}.registered_clients (coalesce(last_used_at, created_at))`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX ${S}.registered_clients_idle`);
    await runner.query(`ALTER TABLE ${S}.registered_clients DROP COLUMN last_used_at`);
  }
}
