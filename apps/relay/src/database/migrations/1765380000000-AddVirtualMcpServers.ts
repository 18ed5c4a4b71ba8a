import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * D52, traffic.md T75: a VIRTUAL MCP server has `members` and no URL of its own; the sessions the
 * relay holds with each member on behalf of one client session live in the database, so any
 * replica can carry the next request of that session.
 */
export class AddVirtualMcpServers1765380000000 implements MigrationInterface {
  name = 'AddVirtualMcpServers1765380000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`ALTER TABLE ${s}.mcp_servers ADD COLUMN members jsonb`);
    await runner.query(`ALTER TABLE ${s}.mcp_servers ALTER COLUMN url DROP NOT NULL`);
    await runner.query(`
      ALTER TABLE ${s}.mcp_servers ADD CONSTRAINT mcp_servers_virtual_shape CHECK (
        (transport = 'VIRTUAL' AND members IS NOT NULL AND url IS NULL)
        OR (transport <> 'VIRTUAL' AND members IS NULL AND url IS NOT NULL))`);
    await runner.query(`
      CREATE TABLE ${s}.virtual_mcp_sessions (
        tenant_id uuid NOT NULL,
        virtual_server_id uuid NOT NULL REFERENCES ${s}.mcp_servers (id) ON DELETE CASCADE,
        session_key text NOT NULL,
        member_server_id uuid NOT NULL REFERENCES ${s}.mcp_servers (id) ON DELETE CASCADE,
        member_session_id text,
        protocol_version text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, virtual_server_id, session_key, member_server_id)
      )`);
    await enableTenantRls(runner, `${s}.virtual_mcp_sessions`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await disableTenantRls(runner, `${s}.virtual_mcp_sessions`);
    await runner.query(`DROP TABLE ${s}.virtual_mcp_sessions`);
    await runner.query(`DELETE FROM ${s}.mcp_servers WHERE transport = 'VIRTUAL'`);
    await runner.query(`ALTER TABLE ${s}.mcp_servers DROP CONSTRAINT mcp_servers_virtual_shape`);
    await runner.query(`ALTER TABLE ${s}.mcp_servers ALTER COLUMN url SET NOT NULL`);
    await runner.query(`ALTER TABLE ${s}.mcp_servers DROP COLUMN members`);
  }
}
