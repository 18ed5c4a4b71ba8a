import { randomUUID } from 'node:crypto';

import { Database } from '@agp/database';

import {
  MigratedRelayDatabase,
  migratedRelayDatabase,
} from '../../test/support/migrated-relay-database';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

const EVENT = { type: 'SUBSCRIPTION_CHANGED', correlationId: 'spec' };

/** Leases, redelivery, tenant isolation and retention on a real relay schema (W7, W8, W9). */
describe(WebhookDeliveriesRepository.name, () => {
  let relay: MigratedRelayDatabase;
  let database: Database;
  const sut = new WebhookDeliveriesRepository();
  const [tenantA, tenantB] = [randomUUID(), randomUUID()];

  beforeAll(async () => {
    relay = await migratedRelayDatabase('relay_webhook_repo', 4);
    database = relay.database;
  });

  afterAll(() => relay?.close());

  /** An agent with a webhook and `count` deliveries due now; their ids. */
  async function deliveriesOf(tenantId: string, count: number): Promise<[string, string[]]> {
    const agentId = randomUUID();
    const ids = Array.from({ length: count }, () => randomUUID());
    await database.inTenant(tenantId, async (tx) => {
      await tx.query(
        `INSERT INTO relay.agents (id, tenant_id, name, status, webhook_url, webhook_secret_ciphertext)
         VALUES ($1, $2, $3, 'ACTIVE', 'https://hooks.example.com', 'sealed')`,
        [agentId, tenantId, `agent-${agentId.slice(0, 8)}`],
      );
      for (const id of ids) {
        await sut.insert(tx, tenantId, { ...EVENT, id: randomUUID() }, [
          { id, agentId, payload: JSON.stringify({ id }) },
        ]);
      }
    });
    return [agentId, ids];
  }

  const claim = (limit: number, leaseMs = 60_000) =>
    database.asSystem((tx) => sut.claimDue(tx, limit, leaseMs));

  it('should lease each due delivery to one claimer when several claim at once', async () => {
    const [, ids] = await deliveriesOf(tenantA, 30);

    const claims = await Promise.all([claim(12), claim(12), claim(12)]);
    const afterwards = await claim(50);

    const claimed = claims.flat().map((c) => c.id);
    expect(claimed).toHaveLength(30);
    expect(new Set(claimed)).toEqual(new Set(ids));
    expect(afterwards.filter((c) => ids.includes(c.id))).toEqual([]);
  });

  it('should give a delivery to another claimer once its lease ran out', async () => {
    const [, [id]] = await deliveriesOf(tenantA, 1);

    const [first] = (await claim(50, 0)).filter((c) => c.id === id);
    const [second] = (await claim(50)).filter((c) => c.id === id);

    expect(first.leaseToken).not.toBe(second.leaseToken);
    expect(second.url).toBe('https://hooks.example.com');
    expect(second.secretCiphertexts).toEqual(['sealed']);
  });

  it('should keep the attempt but not move the delivery when a redelivery took the lease back', async () => {
    const [agentId, [id]] = await deliveriesOf(tenantA, 1);
    const [claimed] = (await claim(50)).filter((c) => c.id === id);
    await database.inTenant(tenantA, (tx) => sut.redeliver(tx, tenantA, agentId, id));

    await database.asSystem((tx) =>
      sut.recordAttempt(
        tx,
        claimed,
        {
          url: 'https://hooks.example.com',
          attemptedAt: new Date(),
          durationMs: 3,
          signatures: 1,
          statusCode: 500,
          error: 'down',
        },
        { status: 'FAILED', nextAttemptAt: null },
      ),
    );
    const stored = await database.inTenant(tenantA, (tx) => sut.find(tx, tenantA, agentId, id));

    expect(stored).toMatchObject({ status: 'PENDING', attemptCount: 1 });
    expect(stored?.attempts).toEqual([expect.objectContaining({ attempt: 1, statusCode: 500 })]);
  });

  it("should not show one tenant's deliveries to another", async () => {
    const [agentId, [id]] = await deliveriesOf(tenantA, 1);

    const asB = await database.inTenant(tenantB, async (tx) => ({
      found: await sut.find(tx, tenantB, agentId, id),
      listed: await sut.list(tx, tenantB, agentId, {}, 50, 0),
      redelivered: await sut.redeliver(tx, tenantB, agentId, id),
    }));
    const asA = await database.inTenant(tenantA, (tx) => sut.list(tx, tenantA, agentId, {}, 50, 0));

    expect(asB).toEqual({ found: undefined, listed: { items: [], total: 0 }, redelivered: false });
    expect(asA.items.map((d) => d.id)).toEqual([id]);
  });

  it('should delete settled deliveries older than the cutoff and keep pending and recent ones', async () => {
    const [agentId, [old, recent, pending]] = await deliveriesOf(tenantB, 3);
    await database.asSystem(async (tx) => {
      await tx.query(
        `UPDATE relay.webhook_deliveries SET status = 'DELIVERED', updated_at = now() - interval '40 days' WHERE id = $1`,
        [old],
      );
      await tx.query(`UPDATE relay.webhook_deliveries SET status = 'FAILED' WHERE id = $1`, [
        recent,
      ]);
      await tx.query(
        `UPDATE relay.webhook_deliveries SET updated_at = now() - interval '40 days' WHERE id = $1`,
        [pending],
      );
    });

    const deleted = await database.asSystem((tx) =>
      sut.pruneSettled(tx, new Date(Date.now() - 30 * 86_400_000), 100),
    );
    const left = await database.inTenant(tenantB, (tx) =>
      sut.list(tx, tenantB, agentId, {}, 50, 0),
    );

    expect(deleted).toBe(1);
    expect(left.items.map((d) => d.id).sort()).toEqual([recent, pending].sort());
  });
});
