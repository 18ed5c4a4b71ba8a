import { randomUUID } from 'node:crypto';

import { Database } from '@agp/database';

import {
  MigratedRelayDatabase,
  migratedRelayDatabase,
} from '../../../../test/support/migrated-relay-database';
import { PushConfigRetentionJob } from './push-config-retention.job';
import { PushConfigsRepository } from './push-configs.repository';

/** traffic.md T113 on a real relay schema: ended or abandoned push configurations go, live ones stay. */
describe(PushConfigRetentionJob.name, () => {
  let relay: MigratedRelayDatabase;
  let database: Database;
  const configs = new PushConfigsRepository();
  const tenantId = randomUUID();

  beforeAll(async () => {
    relay = await migratedRelayDatabase('relay_push_retention');
    database = relay.database;
  });

  afterAll(() => relay?.close());

  async function kept(age: { updatedDaysAgo: number }): Promise<string> {
    const id = randomUUID();
    await database.inTenant(tenantId, async (tx) => {
      await configs.insert(tx, {
        id,
        tenantId,
        callerId: randomUUID(),
        targetId: randomUUID(),
        taskId: `task-${id}`,
        url: 'https://caller.example/push',
        tokenSha256: 'x'.repeat(64),
      });
      await tx.query(
        `UPDATE relay.a2a_push_configs SET updated_at = now() - make_interval(days => $2)
          WHERE id = $1`,
        [id, age.updatedDaysAgo],
      );
    });
    return id;
  }

  const pushed = (id: string, ended: boolean, daysAgo = 0) =>
    database.inTenant(tenantId, async (tx) => {
      await configs.pushed(tx, tenantId, id, ended);
      await tx.query(
        `UPDATE relay.a2a_push_configs
            SET last_push_at = last_push_at - make_interval(days => $2),
                task_ended_at = task_ended_at - make_interval(days => $2)
          WHERE id = $1`,
        [id, daysAgo],
      );
    });

  it('should forget configurations whose task ended a day ago or that saw nothing for 30 days', async () => {
    const working = await kept({ updatedDaysAgo: 40 });
    await pushed(working, false, 2);
    const endedLongAgo = await kept({ updatedDaysAgo: 3 });
    await pushed(endedLongAgo, true, 2);
    const endedJustNow = await kept({ updatedDaysAgo: 3 });
    await pushed(endedJustNow, true);
    await kept({ updatedDaysAgo: 31 }); // abandoned: no push, no change for 31 days
    const quiet = await kept({ updatedDaysAgo: 5 });

    const removed = await new PushConfigRetentionJob(database, configs).tick();

    const left: Array<{ id: string }> = await database.asSystem((tx) =>
      tx.query(`SELECT id FROM relay.a2a_push_configs WHERE tenant_id = $1`, [tenantId]),
    );
    expect(removed).toBe(2);
    expect(left.map((row) => row.id).sort()).toEqual([working, endedJustNow, quiet].sort());
  });

  it('should keep the first end when a late push repeats it', async () => {
    const id = await kept({ updatedDaysAgo: 0 });
    await pushed(id, true, 2);
    await pushed(id, true);

    const removed = await new PushConfigRetentionJob(database, configs).tick();

    expect(removed).toBe(1);
  });
});
