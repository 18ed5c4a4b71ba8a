import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * guardrails.md GR38: one row per MCP server whose tools changed (`notifications/tools/list_changed`):
 * when they last changed, which replica's session holds the claim to list them again and until
 * when, and when a listing last started that saw every change before it.
 */
export class CreateMcpToolRelists1765470000000 implements MigrationInterface {
  name = 'CreateMcpToolRelists1765470000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.mcp_tool_relists (
        tenant_id uuid NOT NULL,
        server_id uuid NOT NULL REFERENCES ${s}.mcp_servers (id) ON DELETE CASCADE,
        changed_at timestamptz NOT NULL,
        claimed_until timestamptz,
        listed_at timestamptz,
        PRIMARY KEY (tenant_id, server_id)
      )`);
    await enableTenantRls(runner, `${s}.mcp_tool_relists`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await disableTenantRls(runner, `${s}.mcp_tool_relists`);
    await runner.query(`DROP TABLE ${s}.mcp_tool_relists`);
  }
}
