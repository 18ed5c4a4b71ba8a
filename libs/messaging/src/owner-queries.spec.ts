import { randomUUID } from 'node:crypto';

import { AgentSnapshot, QueryRequest } from '@agp/contracts';
import { TEST_NATS_URL, uniqueNatsPrefix } from '@agp/testing';

import { silentLogger } from '../test/support/messaging-test-schema';
import { testJetStreamOptions } from '../test/support/jetstream-test-kit';
import { EventTransport } from './event-transport';
import { InProcessTransport } from './in-process.transport';
import { JetStreamTransport } from './jetstream.transport';
import { OwnerQueries, OwnerUnavailableError } from './owner-queries';
import { deleteNatsStreams } from './testing';

/** What tenant-auth would hold: agents by tenant and id. */
function ownerOf(agents: Map<string, AgentSnapshot & { tenantId: string }>) {
  return async ({ tenantId, id }: QueryRequest<'AGENT_IDENTITY'>) => {
    const agent = agents.get(id);
    if (!agent || agent.tenantId !== tenantId) {
      return null;
    }
    const { tenantId: _owned, ...snapshot } = agent;
    return snapshot;
  };
}

describe.each([
  ['JetStream', true],
  ['in-process', false],
] as const)(`${OwnerQueries.name} (%s)`, (_name, overNats) => {
  const transports: EventTransport[] = [];
  let prefix: string;

  async function transport(): Promise<EventTransport> {
    const opened = overNats
      ? await JetStreamTransport.connect(testJetStreamOptions(prefix), silentLogger)
      : new InProcessTransport(silentLogger);
    transports.push(opened);
    return opened;
  }

  /** The asker and the owner: two connections on NATS, one bus in one process (D2). */
  async function pair(timeoutMs = 2_000): Promise<{ asker: OwnerQueries; owner: OwnerQueries }> {
    const ownerTransport = await transport();
    const askerTransport = overNats ? await transport() : ownerTransport;
    return {
      asker: new OwnerQueries(askerTransport, silentLogger, timeoutMs),
      owner: new OwnerQueries(ownerTransport, silentLogger, timeoutMs),
    };
  }

  beforeEach(() => {
    prefix = uniqueNatsPrefix('queries');
  });

  afterEach(async () => {
    for (const opened of transports.splice(0)) {
      await opened.close();
    }
    if (overNats) {
      await deleteNatsStreams(prefix, TEST_NATS_URL);
    }
  });

  it('should answer with the owner state when the id is the asking tenant', async () => {
    const tenantId = randomUUID();
    const agentId = randomUUID();
    const snapshot = { agentId, name: 'a', status: 'ACTIVE', permissions: [], revision: 1 };
    const { asker, owner } = await pair();
    await owner.answer('AGENT_IDENTITY', ownerOf(new Map([[agentId, { ...snapshot, tenantId }]])));

    await expect(asker.ask('AGENT_IDENTITY', { tenantId, id: agentId })).resolves.toEqual(snapshot);
  });

  it('should answer null when the id belongs to another tenant', async () => {
    const agentId = randomUUID();
    const snapshot = { agentId, name: 'a', status: 'ACTIVE', permissions: [], revision: 1 };
    const { asker, owner } = await pair();
    await owner.answer(
      'AGENT_IDENTITY',
      ownerOf(new Map([[agentId, { ...snapshot, tenantId: randomUUID() }]])),
    );

    await expect(
      asker.ask('AGENT_IDENTITY', { tenantId: randomUUID(), id: agentId }),
    ).resolves.toBeNull();
  });

  it('should fail with OwnerUnavailableError when nobody answers the type', async () => {
    const { asker } = await pair();

    const asked = asker.ask('AGENT_IDENTITY', { tenantId: randomUUID(), id: randomUUID() });

    await expect(asked).rejects.toBeInstanceOf(OwnerUnavailableError);
    await expect(asked).rejects.toMatchObject({ owner: 'tenant-auth', reason: 'no-answerer' });
  });

  it('should fail with a timeout, not hang, when the owner does not answer in time', async () => {
    const { asker, owner } = await pair(200);
    await owner.answer('AGENT_IDENTITY', () => new Promise(() => undefined));

    await expect(
      asker.ask('AGENT_IDENTITY', { tenantId: randomUUID(), id: randomUUID() }),
    ).rejects.toMatchObject({ reason: 'timeout', message: expect.stringMatching(/200 ms/) });
  });

  it('should report the owner failed when its handler throws', async () => {
    const { asker, owner } = await pair();
    await owner.answer('AGENT_IDENTITY', () => Promise.reject(new Error('database down')));

    await expect(
      asker.ask('AGENT_IDENTITY', { tenantId: randomUUID(), id: randomUUID() }),
    ).rejects.toMatchObject({ reason: 'failed' });
  });

  it('should refuse an answer that is not its contract', async () => {
    const { asker, owner } = await pair();
    await owner.answer('AGENT_IDENTITY', async ({ id }) => ({
      agentId: id,
      name: 'a',
      status: 'ACTIVE',
      permissions: [],
      revision: 0,
    }));

    await expect(
      asker.ask('AGENT_IDENTITY', { tenantId: randomUUID(), id: randomUUID() }),
    ).rejects.toMatchObject({
      reason: 'invalid-answer',
      message: expect.stringMatching(/revision/),
    });
  });

  it('should refuse a request that is not its contract before it reaches the handler', async () => {
    const { asker, owner } = await pair();
    const handler = jest.fn(async () => null);
    await owner.answer('AGENT_IDENTITY', handler);

    await expect(
      asker.ask('AGENT_IDENTITY', { tenantId: 'not-a-uuid', id: randomUUID() }),
    ).rejects.toThrow(/invalid AGENT_IDENTITY request: tenantId/);
    expect(handler).not.toHaveBeenCalled();
  });

  if (overNats) {
    it('should have one replica of the owner answer each query', async () => {
      const { asker, owner } = await pair();
      const second = new OwnerQueries(await transport(), silentLogger);
      const answered: string[] = [];
      const handler = (name: string) => async () => {
        answered.push(name);
        return null;
      };
      await owner.answer('AGENT_IDENTITY', handler('first'));
      await second.answer('AGENT_IDENTITY', handler('second'));

      for (let i = 0; i < 20; i += 1) {
        await asker.ask('AGENT_IDENTITY', { tenantId: randomUUID(), id: randomUUID() });
      }

      expect(answered).toHaveLength(20);
    });
  }
});
