import { randomUUID } from 'node:crypto';

import { Database } from '@agp/database';

import {
  MigratedRelayDatabase,
  migratedRelayDatabase,
} from '../../../test/support/migrated-relay-database';
import {
  CHANNEL_EVENT_RETENTION_MS,
  ChannelEventsRetentionJob,
} from './channel-events-retention.job';
import { ChannelEventStatus, ChannelEventsRepository } from './channel-events.repository';

/** CH13 on a real relay schema: settled events go after 7 days, live ones stay whatever their age. */
describe(ChannelEventsRetentionJob.name, () => {
  let relay: MigratedRelayDatabase;
  let database: Database;
  let sut: ChannelEventsRetentionJob;
  const tenantId = randomUUID();
  const channelId = randomUUID();

  beforeAll(async () => {
    relay = await migratedRelayDatabase('relay_channel_retention');
    database = relay.database;
    sut = new ChannelEventsRetentionJob(database, new ChannelEventsRepository());
    await database.inTenant(tenantId, (tx) =>
      tx.query(
        `INSERT INTO relay.channels (id, tenant_id, name, kind) VALUES ($1, $2, 'support', 'WEB')`,
        [channelId, tenantId],
      ),
    );
  });

  afterAll(() => relay?.close());

  /** An event in `status`, last changed `ageMs` ago; its id. */
  async function eventOf(status: ChannelEventStatus, ageMs: number): Promise<string> {
    const id = randomUUID();
    await database.inTenant(tenantId, (tx) =>
      tx.query(
        `INSERT INTO relay.channel_events
           (id, tenant_id, channel_id, external_id, correlation_id, message, status, updated_at)
         VALUES ($1, $2, $3, $4, $5, '{"text":"hi"}', $6, now() - make_interval(secs => $7))`,
        [id, tenantId, channelId, `ext-${id}`, randomUUID(), status, ageMs / 1000],
      ),
    );
    return id;
  }

  const remaining = (): Promise<string[]> =>
    database.asSystem(async (tx) => {
      const rows: Array<{ id: string }> = await tx.query(`SELECT id FROM relay.channel_events`);
      return rows.map((row) => row.id);
    });

  it('should remove settled events past the retention and keep recent and unsettled ones', async () => {
    const old = CHANNEL_EVENT_RETENTION_MS + 60_000;
    const settledOld = await Promise.all(
      (['ANSWERED', 'REFUSED', 'FAILED'] as const).map((s) => eventOf(s, old)),
    );
    const settledRecent = await eventOf('ANSWERED', 60_000);
    const live = await Promise.all(
      (['PENDING', 'REPLYING', 'REPLY_HELD'] as const).map((s) => eventOf(s, old)),
    );

    const removed = await sut.tick();

    expect(removed).toBe(3);
    const left = await remaining();
    expect(left).toEqual(expect.arrayContaining([settledRecent, ...live]));
    expect(left).not.toEqual(expect.arrayContaining([settledOld[0]]));
    expect(left).toHaveLength(4);
  });
});
