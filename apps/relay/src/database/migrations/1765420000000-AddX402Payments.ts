import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * D48, D60 (payments.md PY6, PY9): the tenant's `paymentReviewThreshold` (USD, exact), and the
 * payment requirements each payee answered a payer with, so a retry's payee is checked against what
 * the relay saw on any replica.
 */
export class AddX402Payments1765420000000 implements MigrationInterface {
  name = 'AddX402Payments1765420000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      ALTER TABLE ${s}.traffic_settings
        ADD COLUMN payment_review_threshold numeric(30, 18)
          CHECK (payment_review_threshold >= 0)`);
    await runner.query(`
      CREATE TABLE ${s}.x402_offers (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        payer_id uuid NOT NULL,
        sink_type text NOT NULL,
        sink_id uuid NOT NULL,
        x402_version integer NOT NULL,
        accepts jsonb NOT NULL,
        seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await runner.query(
      `CREATE INDEX x402_offers_of_payer ON ${s}.x402_offers (tenant_id, payer_id, sink_id, seen_at DESC)`,
    );
    await runner.query(`CREATE INDEX x402_offers_by_expiry ON ${s}.x402_offers (expires_at)`);
    await enableTenantRls(runner, `${s}.x402_offers`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await disableTenantRls(runner, `${s}.x402_offers`);
    await runner.query(`DROP TABLE ${s}.x402_offers`);
    await runner.query(`ALTER TABLE ${s}.traffic_settings DROP COLUMN payment_review_threshold`);
  }
}
