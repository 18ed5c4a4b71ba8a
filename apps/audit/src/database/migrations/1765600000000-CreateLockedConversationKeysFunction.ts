import { MigrationInterface, QueryRunner } from 'typeorm';

import { AUDIT_SCHEMA } from '../tokens';

const S = AUDIT_SCHEMA;

/**
 * A56: the conversation index's tenant locks and its read of the known keys in one call. A
 * VOLATILE function's statements each take a snapshot of their own, so the keys are read after
 * the locks are held, as the two statements did (CV5); in one statement they could not be.
 */
export class CreateLockedConversationKeysFunction1765600000000 implements MigrationInterface {
  name = 'CreateLockedConversationKeysFunction1765600000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE FUNCTION ${S}.locked_conversation_keys(locks text[], tenant_ids uuid[], wanted text[])
      RETURNS TABLE (tenant_id uuid, key text, conversation_id uuid)
      LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtextextended(l, 44)) FROM unnest(locks) AS l;
        RETURN QUERY SELECT k.tenant_id, k.key, k.conversation_id FROM ${S}.conversation_keys k
          WHERE k.tenant_id = ANY(tenant_ids) AND k.key = ANY(wanted);
      END
      $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP FUNCTION ${S}.locked_conversation_keys(text[], uuid[], text[])`);
  }
}
