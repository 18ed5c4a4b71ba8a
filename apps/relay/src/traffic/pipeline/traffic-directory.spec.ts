import { randomUUID } from 'node:crypto';

import { RequestContext } from '@agp/auth';
import { Database, Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';
import pino from 'pino';

import {
  MigratedRelayDatabase,
  migratedRelayDatabase,
  replicaBroadcastOn,
} from '../../../test/support/migrated-relay-database';
import { TrafficSettingsRepository } from '../../traffic-settings/traffic-settings.repository';
import { TrafficSettingsService } from '../../traffic-settings/traffic-settings.service';
import { readLlmRoute } from './llm-route';
import { TrafficDirectory } from './traffic-directory';

/** T116, T117 on a real relay schema: what a hop reads of its tenant and route, in how many reads. */
describe(TrafficDirectory.name, () => {
  const logger = pino({ level: 'silent' });
  let relay: MigratedRelayDatabase;
  let database: Database;
  let outbox: EventOutbox;
  let directory: TrafficDirectory;
  let settings: TrafficSettingsService;
  let transactions = 0;

  beforeAll(async () => {
    relay = await migratedRelayDatabase('relay_traffic_directory');
    database = relay.database;
    database.dataSource.subscribers.push({ afterTransactionStart: () => void (transactions += 1) });
    const replica = replicaBroadcastOn(database, logger);
    const broadcast = replica.broadcast;
    outbox = replica.outbox;
    directory = new TrafficDirectory(database, broadcast);
    settings = new TrafficSettingsService(database, outbox, new TrafficSettingsRepository());
    await directory.onApplicationBootstrap();
  });

  afterAll(async () => {
    directory?.onApplicationShutdown();
    await relay?.close();
  });

  function adminOf(tenantId: string): RequestContext {
    return {
      tenantId,
      correlationId: randomUUID(),
      principal: {
        kind: 'USER',
        subject: randomUUID(),
        tenantId,
        permissions: new Set<string>(),
        scopes: [],
        label: 'Ada',
        tokenId: 't-1',
        expiresAt: 0,
      },
    } as unknown as RequestContext;
  }

  async function transactionsOf(work: () => Promise<unknown>): Promise<number> {
    const before = transactions;
    await work();
    return transactions - before;
  }

  it("should read a tenant's engaged kill switches and its traffic settings in one transaction", async () => {
    const tenantId = randomUUID();
    const agentId = randomUUID();
    await database.inTenant(tenantId, async (tx) => {
      await tx.query(
        `INSERT INTO relay.kill_switches (id, tenant_id, scope, target_id, reason)
         VALUES ($1, $2, 'AGENT', $3, 'stop')`,
        [randomUUID(), tenantId, agentId],
      );
      await tx.query(
        `INSERT INTO relay.traffic_settings (tenant_id, agent_per_minute) VALUES ($1, 7)`,
        [tenantId],
      );
    });

    let switches: Awaited<ReturnType<TrafficDirectory['engagedKillSwitches']>> = [];
    let agentPerMinute: number | null = null;
    const reads = await transactionsOf(async () => {
      switches = await directory.engagedKillSwitches(tenantId);
      ({ agentPerMinute } = await directory.settings(tenantId));
    });

    expect(reads).toBe(1);
    expect(switches).toEqual([
      { id: expect.any(String), scope: 'AGENT', targetId: agentId, reason: 'stop' },
    ]);
    expect(agentPerMinute).toBe(7);
  });

  it('should read both again once a change of the tenant is broadcast, not after the net', async () => {
    const tenantId = randomUUID();
    await directory.settings(tenantId);
    await settings.update(adminOf(tenantId), { rateLimits: { tenantPerMinute: 3 } });

    const { tenantPerMinute } = await directory.settings(tenantId);

    expect(tenantPerMinute).toBe(3);
  });

  it("should read an LLM route with its providers in one statement, in the gateway's failover order", async () => {
    const tenantId = randomUUID();
    const [gatewayId, first, second] = [randomUUID(), randomUUID(), randomUUID()];
    await database.inTenant(tenantId, async (tx) => {
      for (const [id, name] of [
        [first, 'first'],
        [second, 'second'],
      ]) {
        await tx.query(
          `INSERT INTO relay.llm_providers (id, tenant_id, name, base_url, models, timeout_ms)
           VALUES ($1, $2, $3, 'http://127.0.0.1:9', '{m-1}', 1234)`,
          [id, tenantId, name],
        );
      }
      await tx.query(
        `INSERT INTO relay.llm_gateways (id, tenant_id, name, provider_ids)
         VALUES ($1, $2, 'gw', $3::uuid[])`,
        [gatewayId, tenantId, [second, randomUUID(), first]],
      );
    });

    let statements = 0;
    const route = await database.inTenant(tenantId, (tx) => {
      const counted = Object.create(tx) as Tx;
      counted.query = ((...args: Parameters<Tx['query']>) => {
        statements += 1;
        return tx.query(...args);
      }) as Tx['query'];
      return readLlmRoute(counted, tenantId, randomUUID(), gatewayId);
    });

    expect(statements).toBe(1);
    expect(route?.gateway.providers).toEqual([
      {
        id: second,
        name: 'second',
        baseUrl: 'http://127.0.0.1:9',
        apiKeySealed: undefined,
        models: ['m-1'],
        timeoutMs: 1234,
      },
      expect.objectContaining({ id: first, name: 'first' }),
    ]);
  });
});
