import { disableTenantRls, enableTenantRls } from '@agp/database';
import { MigrationInterface, QueryRunner } from 'typeorm';

import { RELAY_SCHEMA } from '../tokens';

/** The TENANT scope's target in `spend_hours` (its budgets name none). */
const NO_TARGET = `'00000000-0000-0000-0000-000000000000'::uuid`;

/** SP20: how many rows one (tenant, scope, target, hour) total is spread over. */
const SLOTS = 8;

/**
 * spend.md SP19: the ledger summed per hour and per what a budget counts under (the tenant, an
 * agent, a subscription, an LLM gateway), kept by a trigger on every ledger line, so a budget's
 * window is a few hour rows rather than every line it holds. Existing lines are summed in once.
 * SP20: each total is spread over eight slots, picked by the inserting transaction's id, so
 * concurrent settles of one tenant seldom wait for each other's row lock; a transaction's lines
 * all go to one slot, so two transactions never lock the same rows in different orders.
 */
export class CreateSpendHours1765540000000 implements MigrationInterface {
  name = 'CreateSpendHours1765540000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`
      CREATE TABLE ${s}.spend_hours (
        tenant_id uuid NOT NULL,
        scope text NOT NULL,
        target_id uuid NOT NULL,
        hour timestamptz NOT NULL,
        slot smallint NOT NULL DEFAULT 0,
        amount_usd numeric(38, 12) NOT NULL DEFAULT 0,
        tokens numeric(38, 0) NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant_id, scope, target_id, hour, slot)
      ) WITH (fillfactor = 70)`);
    // SP20: room on each page, so an update of a total (no key changes) is HOT and its dead
    // version is pruned in place, without an index entry.
    await runner.query(`
      CREATE FUNCTION ${s}.spend_hours_of(e ${s}.spend_entries)
        RETURNS TABLE (scope text, target_id uuid) LANGUAGE sql IMMUTABLE AS $$
        SELECT v.scope, v.target_id FROM (VALUES
          ('TENANT', ${NO_TARGET}),
          ('AGENT', e.agent_id),
          ('SUBSCRIPTION', e.subscription_id),
          ('LLM_GATEWAY', e.llm_gateway_id)) AS v (scope, target_id)
        WHERE v.target_id IS NOT NULL $$`);
    await runner.query(`
      CREATE FUNCTION ${s}.spend_hours_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ${s}.spend_hours AS h
            (tenant_id, scope, target_id, hour, slot, amount_usd, tokens)
          SELECT NEW.tenant_id, o.scope, o.target_id, date_trunc('hour', NEW.occurred_at, 'UTC'),
                 (pg_current_xact_id()::text::bigint % ${SLOTS})::smallint,
                 coalesce(NEW.amount_usd, 0), NEW.total_tokens
            FROM ${s}.spend_hours_of(NEW) o
        ON CONFLICT (tenant_id, scope, target_id, hour, slot) DO UPDATE
          SET amount_usd = h.amount_usd + EXCLUDED.amount_usd, tokens = h.tokens + EXCLUDED.tokens;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE TRIGGER spend_hours_count AFTER INSERT ON ${s}.spend_entries
        FOR EACH ROW EXECUTE FUNCTION ${s}.spend_hours_count()`);
    // After the trigger: creating it locks out new lines, so each is counted once, here or there.
    await runner.query(`
      INSERT INTO ${s}.spend_hours (tenant_id, scope, target_id, hour, amount_usd, tokens)
        SELECT e.tenant_id, o.scope, o.target_id, date_trunc('hour', e.occurred_at, 'UTC'),
               sum(coalesce(e.amount_usd, 0)), sum(e.total_tokens)
          FROM ${s}.spend_entries e CROSS JOIN LATERAL ${s}.spend_hours_of(e) o
         GROUP BY 1, 2, 3, 4`);
    await enableTenantRls(runner, `${s}.spend_hours`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = RELAY_SCHEMA;
    await runner.query(`DROP TRIGGER spend_hours_count ON ${s}.spend_entries`);
    await runner.query(`DROP FUNCTION ${s}.spend_hours_count()`);
    await runner.query(`DROP FUNCTION ${s}.spend_hours_of(${s}.spend_entries)`);
    await disableTenantRls(runner, `${s}.spend_hours`);
    await runner.query(`DROP TABLE ${s}.spend_hours`);
  }
}
