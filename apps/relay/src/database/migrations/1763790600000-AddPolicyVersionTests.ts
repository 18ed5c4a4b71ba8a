import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * Policy tests (issue 15): a version may carry a Rego test module (`test_` rules) that ran and passed
 * when the version was created; `test_results` keeps what each test reported then.
 */
export class AddPolicyVersionTests1763790600000 implements MigrationInterface {
  name = 'AddPolicyVersionTests1763790600000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE ${RELAY_SCHEMA}.policy_group_versions ADD COLUMN test_source text, ADD COLUMN test_results jsonb`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE ${RELAY_SCHEMA}.policy_group_versions DROP COLUMN test_results, DROP COLUMN test_source`,
    );
  }
}
