import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/**
 * A push held for human review is delivered by its approval (traffic.md "A held push is delivered
 * when approved"): the hold names the push configuration it goes to and the content type the
 * target sent, and once delivered the webhook delivery that carries it, so the target's waiting
 * POST, on whichever replica, answers with that delivery.
 */
export class CreateA2aHeldPushes1765100000000 implements MigrationInterface {
  name = 'CreateA2aHeldPushes1765100000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.a2a_held_pushes (
        hitl_request_id uuid PRIMARY KEY REFERENCES ${s}.hitl_requests (id) ON DELETE CASCADE,
        tenant_id uuid NOT NULL,
        push_config_id uuid NOT NULL,
        content_type text NOT NULL,
        delivery_id uuid,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await enableTenantRls(runner, `${s}.a2a_held_pushes`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await disableTenantRls(runner, `${s}.a2a_held_pushes`);
    await runner.query(`DROP TABLE ${s}.a2a_held_pushes`);
  }
}
