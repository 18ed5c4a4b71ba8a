import { enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'tenant_auth';

/**
 * identity.md I14–I17: browser sign-in (OpenID Connect, authorization code with PKCE). Looked up
 * by a random handle before the tenant is known, so they are read as the system; row-level security
 * still guards them like every tenant-owned table (an authorization request has no tenant until
 * someone signs in, and the policy lets only the system see such a row).
 */
export class CreateSignInTables1764300000000 implements MigrationInterface {
  name = 'CreateSignInTables1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${S}.sign_in_sessions (
        id_hash text PRIMARY KEY,
        id uuid NOT NULL UNIQUE,
        tenant_id uuid NOT NULL REFERENCES ${S}.tenants (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES ${S}.users (id) ON DELETE CASCADE,
        identity_provider_id uuid,
        auth_time timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE ${S}.authorization_requests (
        id uuid PRIMARY KEY,
        client_id text NOT NULL,
        redirect_uri text NOT NULL,
        scope text NOT NULL,
        state text,
        nonce text,
        code_challenge text NOT NULL,
        tenant_hint text,
        upstream jsonb,
        code_hash text UNIQUE,
        tenant_id uuid REFERENCES ${S}.tenants (id) ON DELETE CASCADE,
        user_id uuid REFERENCES ${S}.users (id) ON DELETE CASCADE,
        session_id uuid,
        auth_time timestamptz,
        code_expires_at timestamptz,
        consumed_at timestamptz,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE ${S}.refresh_tokens (
        token_hash text PRIMARY KEY,
        family_id uuid NOT NULL,
        session_id uuid,
        tenant_id uuid NOT NULL REFERENCES ${S}.tenants (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES ${S}.users (id) ON DELETE CASCADE,
        client_id text NOT NULL,
        scope text NOT NULL,
        rotated_at timestamptz,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX ON ${S}.refresh_tokens (family_id)`);
    await runner.query(`CREATE INDEX ON ${S}.refresh_tokens (session_id)`);
    await runner.query(`CREATE INDEX ON ${S}.authorization_requests (expires_at)`);
    await runner.query(`CREATE INDEX ON ${S}.sign_in_sessions (expires_at)`);
    for (const table of ['sign_in_sessions', 'authorization_requests', 'refresh_tokens']) {
      await enableTenantRls(runner, `${S}.${table}`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${S}.refresh_tokens`);
    await runner.query(`DROP TABLE ${S}.authorization_requests`);
    await runner.query(`DROP TABLE ${S}.sign_in_sessions`);
  }
}
