import { jetstream, jetstreamManager, JetStreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Database } from '@agp/database';
import {
  createTestDatabase,
  deleteNatsStreams,
  TEST_NATS_URL,
  TestDatabase,
  uniqueNatsPrefix,
} from '@agp/testing';

import { JetStreamOptions, JetStreamTransport } from '../../src/jetstream.transport';
import { eventsStreamName } from '../../src/subjects';
import { openTestSchema, silentLogger } from './messaging-test-schema';

/** Test settings: short waits so redelivery and parking happen within a test. */
export function testJetStreamOptions(
  prefix: string,
  overrides: Partial<JetStreamOptions> = {},
): JetStreamOptions {
  return {
    url: TEST_NATS_URL,
    prefix,
    redelivery: { maxDeliveries: 3, backoffMs: [50] },
    ackWaitMs: 1_000,
    publishTimeoutMs: 1_000,
    ...overrides,
  };
}

/** A replica's transport on a connection of its own, which the test may close abruptly (a crash). */
export async function replicaTransport(
  options: JetStreamOptions,
): Promise<{ transport: JetStreamTransport; crash: () => Promise<void> }> {
  const nc = await connect({ servers: options.url, name: `test-${options.prefix}` });
  const transport = await JetStreamTransport.overConnection(nc, options, silentLogger);
  return { transport, crash: () => nc.close() };
}

export interface StreamFacts {
  messages: number;
}

export interface ConsumerFacts {
  /** Deliveries made, redeliveries included. */
  delivered: number;
  ackPending: number;
  /** Stream sequence up to which everything is acked. */
  ackFloor: number;
}

async function withManager<T>(
  url: string,
  work: (jsm: JetStreamManager) => Promise<T>,
): Promise<T> {
  const nc = await connect({ servers: url });
  try {
    return await work(await jetstreamManager(nc));
  } finally {
    await nc.close();
  }
}

export async function eventsStreamFacts(prefix: string, url = TEST_NATS_URL): Promise<StreamFacts> {
  return withManager(url, async (jsm) => {
    const info = await jsm.streams.info(eventsStreamName(prefix));
    return { messages: info.state.messages };
  });
}

export async function consumerFacts(
  prefix: string,
  durable: string,
  url = TEST_NATS_URL,
): Promise<ConsumerFacts> {
  return withManager(url, async (jsm) => {
    const info = await jsm.consumers.info(eventsStreamName(prefix), durable);
    return {
      delivered: info.delivered.consumer_seq,
      ackPending: info.num_ack_pending,
      ackFloor: info.ack_floor.stream_seq,
    };
  });
}

/** Deletes a durable consumer of the events stream, as an operator (or a lost NATS storage) would. */
export async function deleteConsumer(
  prefix: string,
  durable: string,
  url = TEST_NATS_URL,
): Promise<void> {
  await withManager(url, async (jsm) => jsm.consumers.delete(eventsStreamName(prefix), durable));
}

/** Publishes raw bytes on an event subject, as a broken producer would. */
export async function publishRaw(
  subject: string,
  body: string,
  url = TEST_NATS_URL,
): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    await jetstream(nc).publish(subject, body);
  } finally {
    await nc.close();
  }
}

/**
 * A spec file's PostgreSQL test schema and NATS prefixes, made before its tests and dropped after
 * them; `cleanups` run after each test, last first.
 */
export function jetStreamTestbed(name: string): {
  database: () => Database;
  newPrefix: () => string;
  cleanups: Array<() => Promise<unknown>>;
} {
  let testDatabase: TestDatabase;
  let database: Database;
  const prefixes: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  beforeAll(async () => {
    testDatabase = await createTestDatabase(name);
    database = await openTestSchema(testDatabase.url, 8);
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
    for (const prefix of prefixes) {
      await deleteNatsStreams(prefix);
    }
  });
  return {
    database: () => database,
    newPrefix: () => {
      const prefix = uniqueNatsPrefix(name.slice(0, 4));
      prefixes.push(prefix);
      return prefix;
    },
    cleanups,
  };
}
