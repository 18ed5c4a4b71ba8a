import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * The A2A relay (D38, issue 13): an agent's card as last fetched from its `agentCardUrl` (served
 * rewritten, compared on refresh, D21), and what the relay needs to reach it (D37): the upstream
 * credential, sealed, the header it travels in, and how long the relay waits for an answer.
 */
export class AddAgentA2aColumns1763790650000 implements MigrationInterface {
  name = 'AddAgentA2aColumns1763790650000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`ALTER TABLE ${s}.agents ADD COLUMN agent_card jsonb`);
    await runner.query(`ALTER TABLE ${s}.agents ADD COLUMN agent_card_fetched_at timestamptz`);
    await runner.query(`ALTER TABLE ${s}.agents ADD COLUMN a2a_credential_ciphertext text`);
    await runner.query(`ALTER TABLE ${s}.agents ADD COLUMN a2a_credential_header text`);
    await runner.query(
      `ALTER TABLE ${s}.agents ADD COLUMN a2a_timeout_ms integer NOT NULL DEFAULT 60000`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    for (const column of [
      'a2a_timeout_ms',
      'a2a_credential_header',
      'a2a_credential_ciphertext',
      'agent_card_fetched_at',
      'agent_card',
    ]) {
      await runner.query(`ALTER TABLE ${s}.agents DROP COLUMN ${column}`);
    }
  }
}
