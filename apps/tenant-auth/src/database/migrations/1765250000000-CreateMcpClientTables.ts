import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'tenant_auth';

/**
 * identity.md I21–I24 (D43): people's own MCP clients. A client registered dynamically (RFC 7591)
 * and a fetched client ID metadata document belong to no tenant (a client exists before anyone
 * signs in), so neither has a tenant_id; an authorization request remembers the MCP server it is
 * for (RFC 8707 `resource`) and the consent it waits for, a refresh token the server it stays
 * bound to.
 */
export class CreateMcpClientTables1765250000000 implements MigrationInterface {
  name = 'CreateMcpClientTables1765250000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${S}.registered_clients (
        client_id text PRIMARY KEY,
        client_name text,
        redirect_uris text[] NOT NULL,
        metadata jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE ${S}.client_metadata_documents (
        url text PRIMARY KEY,
        document jsonb NOT NULL,
        fetched_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await runner.query(`ALTER TABLE ${S}.authorization_requests ADD COLUMN resource text`);
    await runner.query(`ALTER TABLE ${S}.authorization_requests ADD COLUMN consent_hash text`);
    await runner.query(`ALTER TABLE ${S}.refresh_tokens ADD COLUMN resource text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${S}.refresh_tokens DROP COLUMN resource`);
    await runner.query(`ALTER TABLE ${S}.authorization_requests DROP COLUMN consent_hash`);
    await runner.query(`ALTER TABLE ${S}.authorization_requests DROP COLUMN resource`);
    await runner.query(`DROP TABLE ${S}.client_metadata_documents`);
    await runner.query(`DROP TABLE ${S}.registered_clients`);
  }
}
