import { randomUUID } from 'node:crypto';

import { Database } from '@agp/database';
import { createTestDatabase, TestDatabase } from '@agp/testing';

import {
  TEST_SCHEMA,
  openTestSchema,
  recordEffect,
  silentLogger,
  storedEffects,
} from '../test/support/messaging-test-schema';
import { EventConsumers } from './event-consumers';
import { buildEvent } from './event-outbox';
import { InProcessTransport } from './in-process.transport';

describe(EventConsumers.name, () => {
  let testDatabase: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('consumers');
    database = await openTestSchema(testDatabase.url);
  });

  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  function setUp() {
    const transport = new InProcessTransport(silentLogger, { maxDeliveries: 2, backoffMs: [10] });
    const sut = new EventConsumers(`svc${randomUUID().slice(0, 8)}`, database, transport);
    return { sut, transport };
  }

  it('should apply an event once when the same id is delivered again', async () => {
    const { sut, transport } = setUp();
    let calls = 0;
    sut.register('effects', ['HITL'], async (event, tx) => {
      calls += 1;
      await recordEffect(tx, event, 'effects', 'a');
    });
    await sut.start();
    const event = buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, {});

    await transport.publish(event);
    await transport.publish(event);

    expect(calls).toBe(1);
    expect((await storedEffects(database)).filter((e) => e.eventId === event.id)).toHaveLength(1);
  });

  it('should let each consumer of a service apply the same event when two are registered', async () => {
    const { sut, transport } = setUp();
    sut.register('first', ['HITL'], (event, tx) => recordEffect(tx, event, 'first', 'a'));
    sut.register('second', ['HITL'], (event, tx) => recordEffect(tx, event, 'second', 'a'));
    await sut.start();
    const event = buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, {});

    await transport.publish(event);

    const consumers = (await storedEffects(database))
      .filter((e) => e.eventId === event.id)
      .map((e) => e.consumer);
    expect(consumers.sort()).toEqual(['first', 'second']);
  });

  it('should roll back the inbox record when the handler fails, so the retry applies the event', async () => {
    const { sut, transport } = setUp();
    let calls = 0;
    sut.register('retrying', ['HITL'], async (event, tx) => {
      calls += 1;
      await recordEffect(tx, event, 'retrying', 'a');
      if (calls === 1) {
        throw new Error('fails after writing');
      }
    });
    await sut.start();
    const event = buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, {});

    await transport.publish(event);

    expect(calls).toBe(2);
    expect((await storedEffects(database)).filter((e) => e.eventId === event.id)).toHaveLength(1);
  });

  it("should run the handler in the event's tenant scope when the scope is tenant", async () => {
    const { sut, transport } = setUp();
    const tenantA = randomUUID();
    const tenantB = randomUUID();
    await database.inTenant(tenantB, (tx) =>
      tx.query(`INSERT INTO ${TEST_SCHEMA}.orders (id, tenant_id, label) VALUES ($1, $2, 'of b')`, [
        randomUUID(),
        tenantB,
      ]),
    );
    const visible: string[] = [];
    let refusal = '';
    sut.register('scoped', ['HITL'], async (_event, tx) => {
      const rows: Array<{ label: string }> = await tx.query(
        `SELECT label FROM ${TEST_SCHEMA}.orders`,
      );
      visible.push(...rows.map((r) => r.label));
      await tx.query('SAVEPOINT other_tenant');
      try {
        await tx.query(
          `INSERT INTO ${TEST_SCHEMA}.orders (id, tenant_id, label) VALUES ($1, $2, 'x')`,
          [randomUUID(), tenantB],
        );
      } catch (error) {
        refusal = (error as Error).message;
      }
      await tx.query('ROLLBACK TO SAVEPOINT other_tenant');
    });
    await sut.start();

    await transport.publish(
      buildEvent('HITL', { tenantId: tenantA, correlationId: randomUUID() }, {}),
    );

    expect(visible).toEqual([]);
    expect(refusal).toMatch(/row-level security/);
  });

  it('should see every tenant when the scope is system', async () => {
    const { sut, transport } = setUp();
    const tenantB = randomUUID();
    await database.inTenant(tenantB, (tx) =>
      tx.query(
        `INSERT INTO ${TEST_SCHEMA}.orders (id, tenant_id, label) VALUES ($1, $2, 'seen by system')`,
        [randomUUID(), tenantB],
      ),
    );
    const visible: string[] = [];
    sut.register(
      'system',
      ['HITL'],
      async (_event, tx) => {
        const rows: Array<{ label: string }> = await tx.query(
          `SELECT label FROM ${TEST_SCHEMA}.orders WHERE tenant_id = $1`,
          [tenantB],
        );
        visible.push(...rows.map((r) => r.label));
      },
      { scope: 'system' },
    );
    await sut.start();

    await transport.publish(
      buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, {}),
    );

    expect(visible).toEqual(['seen by system']);
  });

  it('should ignore an event of a type it did not register for when a wider transport filter hands it over', async () => {
    const { sut } = setUp();
    let calls = 0;
    const registration = {
      name: 'narrow',
      types: ['TENANT_LIFECYCLE' as const],
      handler: async () => {
        calls += 1;
      },
      scope: 'tenant' as const,
    };

    await sut.process(
      registration,
      buildEvent('HITL', { tenantId: randomUUID(), correlationId: randomUUID() }, {}),
    );

    expect(calls).toBe(0);
  });
});
