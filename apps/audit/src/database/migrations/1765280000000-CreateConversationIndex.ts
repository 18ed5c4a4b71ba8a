import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { AUDIT_SCHEMA } from '../tokens';

const S = AUDIT_SCHEMA;
const TABLES = ['conversations', 'conversation_keys', 'conversation_parties', 'conversation_hops'];

/**
 * D44, conversations.md CV4–CV6: the conversation index, written in the ingest's transaction (M16).
 * `conversations` pages newest first by `(started_at, id)`; `conversation_parties` serves the
 * agent, user, channel and MCP server filters in the same order; `conversation_hops` names each
 * hop's event, so a read joins the trail by its primary key `(id, occurred_at)`.
 */
export class CreateConversationIndex1765280000000 implements MigrationInterface {
  name = 'CreateConversationIndex1765280000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${S}.conversations (
        tenant_id uuid NOT NULL,
        id uuid NOT NULL,
        key_kind text NOT NULL,
        key text NOT NULL,
        started_at timestamptz NOT NULL,
        last_at timestamptz NOT NULL,
        hop_count integer NOT NULL,
        protocols text[] NOT NULL,
        agent_ids text[] NOT NULL,
        user_ids text[] NOT NULL,
        channel_ids text[] NOT NULL,
        mcp_server_ids text[] NOT NULL,
        has_agent_hops boolean NOT NULL,
        has_mcp_hops boolean NOT NULL,
        PRIMARY KEY (tenant_id, id)
      )`);
    await runner.query(
      `CREATE INDEX conversations_newest ON ${S}.conversations (tenant_id, started_at DESC, id DESC)`,
    );
    await runner.query(`
      CREATE TABLE ${S}.conversation_keys (
        tenant_id uuid NOT NULL,
        key text NOT NULL,
        conversation_id uuid NOT NULL,
        PRIMARY KEY (tenant_id, key)
      )`);
    await runner.query(`
      CREATE TABLE ${S}.conversation_parties (
        tenant_id uuid NOT NULL,
        party text NOT NULL,
        conversation_id uuid NOT NULL,
        started_at timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, party, conversation_id)
      )`);
    await runner.query(
      `CREATE INDEX conversation_parties_newest ON ${S}.conversation_parties (tenant_id, party, started_at DESC, conversation_id DESC)`,
    );
    await runner.query(`
      CREATE TABLE ${S}.conversation_hops (
        tenant_id uuid NOT NULL,
        conversation_id uuid NOT NULL,
        occurred_at timestamptz NOT NULL,
        event_id uuid NOT NULL,
        family text NOT NULL,
        PRIMARY KEY (tenant_id, conversation_id, occurred_at, event_id)
      )`);
    for (const table of TABLES) {
      await enableTenantRls(runner, `${S}.${table}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) {
      await disableTenantRls(runner, `${S}.${table}`);
      await runner.query(`DROP TABLE IF EXISTS ${S}.${table}`);
    }
  }
}
