import { randomUUID } from 'node:crypto';

import { Database, Tx } from '@agp/database';

import {
  MigratedRelayDatabase,
  migratedRelayDatabase,
} from '../../../../test/support/migrated-relay-database';
import { McpCall } from '../mcp-call';
import { TranslatedSessions } from './translated-sessions';
import {
  TranslatedSessionKey,
  TranslatedSessionsRepository,
} from './translated-sessions.repository';

/** traffic.md T104 on a real relay schema: what a 2025 client set in its minted session. */
describe(TranslatedSessionsRepository.name, () => {
  let relay: MigratedRelayDatabase;
  let database: Database;
  const sut = new TranslatedSessionsRepository();

  beforeAll(async () => {
    relay = await migratedRelayDatabase('relay_mcp_translated');
    database = relay.database;
  });

  afterAll(() => relay?.close());

  const keyOf = (tenantId = randomUUID()): TranslatedSessionKey => ({
    tenantId,
    partyId: 'agent-1',
    sessionKey: randomUUID(),
  });

  it('should keep a level and a set of URIs, each URI once, and forget them on DELETE', async () => {
    const key = keyOf();
    const run = (work: (tx: Tx) => Promise<void>): Promise<void> =>
      database.inTenant(key.tenantId, work);

    await run((tx) => sut.setLogLevel(tx, key, 'warning'));
    await run((tx) => sut.subscribe(tx, key, 'test://b', true));
    await run((tx) => sut.subscribe(tx, key, 'test://a', true));
    await run((tx) => sut.subscribe(tx, key, 'test://a', true));
    await run((tx) => sut.subscribe(tx, key, 'test://b', false));
    const kept = await database.inTenant(key.tenantId, (tx) => sut.find(tx, key));
    await run((tx) => sut.forget(tx, key));
    const forgotten = await database.inTenant(key.tenantId, (tx) => sut.find(tx, key));

    expect(kept).toEqual({ logLevel: 'warning', resourceUris: ['test://a'] });
    expect(forgotten).toEqual({ resourceUris: [] });
  });

  it('should not show one tenant’s session to another tenant', async () => {
    const key = keyOf();
    await database.inTenant(key.tenantId, (tx) => sut.setLogLevel(tx, key, 'debug'));

    const seenByB = await database.inTenant(randomUUID(), (tx) => sut.find(tx, key));
    const otherParty = await database.inTenant(key.tenantId, (tx) =>
      sut.find(tx, { ...key, partyId: 'agent-2' }),
    );

    expect(seenByB).toEqual({ resourceUris: [] });
    expect(otherParty).toEqual({ resourceUris: [] });
  });

  it('should forget an unused session of another tenant when a tenant sets a level', async () => {
    const stale = keyOf();
    await database.inTenant(stale.tenantId, (tx) => sut.setLogLevel(tx, stale, 'info'));
    await database.asSystem((tx) =>
      tx.query(
        `UPDATE relay.mcp_translated_sessions SET updated_at = now() - interval '31 days'
          WHERE session_key = $1`,
        [stale.sessionKey],
      ),
    );
    const call = { tenantId: randomUUID(), agentId: 'agent-1', agentHeaders: {} } as McpCall;

    await new TranslatedSessions(database).setLogLevel(call, 'debug');
    const left = await database.inTenant(stale.tenantId, (tx) => sut.find(tx, stale));

    expect(left).toEqual({ resourceUris: [] });
  });
});
