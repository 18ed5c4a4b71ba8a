import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * D51: the tool definitions the relay has seen per MCP server, with their hash and the hash an
 * administrator pinned; the flags already recorded (one MCP_LIFECYCLE per changed hash or per
 * shadowing pair, traffic.md T87); and the tenant's `toolDrift` and allowed origins (T85).
 */
export class CreateMcpToolDefinitions1765330000000 implements MigrationInterface {
  name = 'CreateMcpToolDefinitions1765330000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      ALTER TABLE ${s}.traffic_settings
        ADD COLUMN allowed_origins text[],
        ADD COLUMN tool_drift text NOT NULL DEFAULT 'HOLD'
          CHECK (tool_drift IN ('LOG', 'HOLD', 'BLOCK'))`);
    await runner.query(`
      CREATE TABLE ${s}.mcp_tool_definitions (
        tenant_id uuid NOT NULL,
        server_id uuid NOT NULL REFERENCES ${s}.mcp_servers (id) ON DELETE CASCADE,
        name text NOT NULL,
        definition jsonb NOT NULL,
        definition_hash text NOT NULL,
        findings jsonb NOT NULL DEFAULT '[]',
        pinned_definition jsonb,
        pinned_hash text,
        pinned_at timestamptz,
        pinned_by text,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        changed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, server_id, name)
      )`);
    await runner.query(
      `CREATE INDEX mcp_tool_definitions_by_name ON ${s}.mcp_tool_definitions (tenant_id, name)`,
    );
    await enableTenantRls(runner, `${s}.mcp_tool_definitions`);
    await runner.query(`
      CREATE TABLE ${s}.mcp_tool_flags (
        tenant_id uuid NOT NULL,
        server_id uuid NOT NULL REFERENCES ${s}.mcp_servers (id) ON DELETE CASCADE,
        name text NOT NULL,
        change text NOT NULL CHECK (change IN ('TOOL_DEFINITION_CHANGED', 'TOOL_NAME_SHADOWED')),
        flag_key text NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, server_id, name, change, flag_key)
      )`);
    await enableTenantRls(runner, `${s}.mcp_tool_flags`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await disableTenantRls(runner, `${s}.mcp_tool_flags`);
    await runner.query(`DROP TABLE ${s}.mcp_tool_flags`);
    await disableTenantRls(runner, `${s}.mcp_tool_definitions`);
    await runner.query(`DROP TABLE ${s}.mcp_tool_definitions`);
    await runner.query(
      `ALTER TABLE ${s}.traffic_settings DROP COLUMN tool_drift, DROP COLUMN allowed_origins`,
    );
  }
}
