import { randomUUID } from 'node:crypto';

import { EventEnvelope } from '@agp/contracts';
import { JetStreamTransport, OwnerQueries } from '@agp/messaging';
import { TEST_NATS_URL, eventually } from '@agp/testing';
import pino from 'pino';

import { BootstrapResult } from '../src';
import {
  Api,
  TenantAuthHarness,
  apiAs,
  bootstrapTenant,
  passwordToken,
  startTenantAuth,
} from './tenant-auth-harness';

/**
 * Issue 30: tenant-auth answers other services' questions about its identities over NATS
 * request-reply, only within the asking tenant, with the revision its lifecycle events carry.
 */
describe('identity queries', () => {
  let harness: TenantAuthHarness;
  let transport: JetStreamTransport;
  let sut: OwnerQueries;
  let adminA: BootstrapResult;
  let adminB: BootstrapResult;
  let a: Api;
  const heard: EventEnvelope[] = [];

  beforeAll(async () => {
    const started = await startTenantAuth({ label: 'identity_queries' });
    harness = started;
    adminA = await bootstrapTenant(harness, 'queries-a');
    adminB = await bootstrapTenant(harness, 'queries-b');
    a = apiAs(harness, await passwordToken(harness, adminA));
    // Another service's connection, as the relay asks.
    transport = await JetStreamTransport.connect(
      {
        url: TEST_NATS_URL,
        prefix: started.natsPrefix,
        redelivery: { maxDeliveries: 1, backoffMs: [] },
      },
      pino({ level: 'silent' }),
    );
    await transport.listen(['AGENT_LIFECYCLE'], {
      onEvent: (envelope) => void heard.push(envelope),
      onGap: () => undefined,
    });
    sut = new OwnerQueries(transport, pino({ level: 'silent' }));
  });

  afterAll(async () => {
    await transport?.close();
    await harness?.close();
  });

  it('should answer an agent at the revision its latest event carries, in its tenant only', async () => {
    const created = await a.post('/agents', { name: 'asked-about' });
    const agentId = String(created.body.id);

    const first = await sut.ask('AGENT_IDENTITY', { tenantId: adminA.tenantId, id: agentId });
    await a.patch(`/agents/${agentId}`, { name: 'renamed', status: 'SUSPENDED' });
    const second = await sut.ask('AGENT_IDENTITY', { tenantId: adminA.tenantId, id: agentId });
    const foreign = await sut.ask('AGENT_IDENTITY', { tenantId: adminB.tenantId, id: agentId });

    expect(first).toEqual({
      agentId,
      name: 'asked-about',
      status: 'ACTIVE',
      permissions: [],
      revision: 1,
    });
    expect(second).toEqual(expect.objectContaining({ name: 'renamed', status: 'SUSPENDED' }));
    expect(second!.revision).toBeGreaterThan(first!.revision);
    expect(foreign).toBeNull();
    const events = await eventually(() => {
      const mine = heard.filter(
        (event) => (event.data as { agentId?: string }).agentId === agentId,
      );
      expect(mine).toHaveLength(2);
      return mine;
    });
    expect(events.map((event) => (event.data as { revision?: number }).revision)).toEqual([
      first!.revision,
      second!.revision,
    ]);
  });

  it('should answer null for a deleted agent, whose event outranks every earlier one', async () => {
    const created = await a.post('/agents', { name: 'short-lived-agent' });
    const agentId = String(created.body.id);
    await a.delete(`/agents/${agentId}`);

    expect(await sut.ask('AGENT_IDENTITY', { tenantId: adminA.tenantId, id: agentId })).toBeNull();
    const deleted = await eventually(() => {
      const found = heard.find(
        (event) =>
          (event.data as { agentId?: string; change?: string }).agentId === agentId &&
          (event.data as { change?: string }).change === 'DELETED',
      );
      expect(found).toBeDefined();
      return found!;
    });
    expect((deleted.data as { revision?: number }).revision).toBe(2);
  });

  it('should answer a user and the asking tenant itself, never another tenant', async () => {
    const user = await a.post('/users', { email: 'asked@queries-a.example', displayName: 'Asked' });

    expect(
      await sut.ask('USER_IDENTITY', { tenantId: adminA.tenantId, id: String(user.body.id) }),
    ).toEqual(
      expect.objectContaining({ email: 'asked@queries-a.example', status: 'ACTIVE', revision: 1 }),
    );
    expect(
      await sut.ask('USER_IDENTITY', { tenantId: adminB.tenantId, id: String(user.body.id) }),
    ).toBeNull();
    expect(
      await sut.ask('TENANT_IDENTITY', { tenantId: adminA.tenantId, id: adminA.tenantId }),
    ).toEqual(expect.objectContaining({ tenantId: adminA.tenantId, slug: 'queries-a' }));
    expect(
      await sut.ask('TENANT_IDENTITY', { tenantId: adminA.tenantId, id: adminB.tenantId }),
    ).toBeNull();
    expect(
      await sut.ask('AGENT_IDENTITY', { tenantId: adminA.tenantId, id: randomUUID() }),
    ).toBeNull();
  });
});
