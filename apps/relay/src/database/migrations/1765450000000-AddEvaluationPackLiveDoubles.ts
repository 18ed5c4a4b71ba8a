import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * LIVE evaluation packs (issue 39 § 3, governance.md G19): the sandbox doubles a pack's LIVE runs
 * reach in place of its targets' own upstreams (`[{targetType, targetId, url | doubleId}]`).
 */
export class AddEvaluationPackLiveDoubles1765450000000 implements MigrationInterface {
  name = 'AddEvaluationPackLiveDoubles1765450000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE ${RELAY_SCHEMA}.evaluation_packs ADD COLUMN live_doubles jsonb NOT NULL DEFAULT '[]'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${RELAY_SCHEMA}.evaluation_packs DROP COLUMN live_doubles`);
  }
}
