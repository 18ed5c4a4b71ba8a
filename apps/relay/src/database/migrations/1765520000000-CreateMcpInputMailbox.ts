import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * traffic.md T101, T102: one row per answer a replica waits for across revisions (a 2025 client's
 * answer to an input request, a 2026 client's retry of a held 2025 call, the held call's next
 * outcome). The replica that gets the message fills `message`; the waiting one takes the row.
 * T104: beside it, what a 2025 client set in a session the relay minted for it.
 */
export class CreateMcpInputMailbox1765520000000 implements MigrationInterface {
  name = 'CreateMcpInputMailbox1765520000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.mcp_input_mailbox (
        id text PRIMARY KEY,
        tenant_id uuid NOT NULL,
        party_id text NOT NULL,
        binding text NOT NULL DEFAULT '',
        message jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE INDEX mcp_input_mailbox_created_at ON ${s}.mcp_input_mailbox (created_at)`,
    );
    await enableTenantRls(runner, `${s}.mcp_input_mailbox`);
    // T104: what a 2025 client set in a session the relay minted (its log level, its resources).
    await runner.query(`
      CREATE TABLE ${s}.mcp_translated_sessions (
        tenant_id uuid NOT NULL,
        party_id text NOT NULL,
        session_key text NOT NULL,
        log_level text,
        resource_uris jsonb NOT NULL DEFAULT '[]',
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, party_id, session_key)
      )`);
    await enableTenantRls(runner, `${s}.mcp_translated_sessions`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await disableTenantRls(runner, `${s}.mcp_translated_sessions`);
    await runner.query(`DROP TABLE ${s}.mcp_translated_sessions`);
    await disableTenantRls(runner, `${s}.mcp_input_mailbox`);
    await runner.query(`DROP TABLE ${s}.mcp_input_mailbox`);
  }
}
