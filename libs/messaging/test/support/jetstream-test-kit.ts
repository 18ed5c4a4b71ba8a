import { jetstream, jetstreamManager, JetStreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Database } from '@agp/database';
import { TEST_NATS_URL, TestDatabase, createTestDatabase, uniqueNatsPrefix } from '@agp/testing';

import { deleteNatsStreams } from '../../src/testing';
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

/** What a JetStream spec sets up around its tests: a database, NATS prefixes and what to close. */
export interface JetStreamBed {
  /** The test schema's database (open from `beforeAll`). */
  readonly database: Database;
  /** Its URL, for a second replica's pool. */
  readonly databaseUrl: string;
  /** A fresh prefix (its streams deleted after all tests). */
  prefix(): string;
  /** Run after the current test, in reverse order of registration. */
  onCleanup(cleanup: () => Promise<unknown>): void;
  /** A transport on a connection of its own, closed after the current test. */
  transport(options: JetStreamOptions): Promise<JetStreamTransport>;
}

/**
 * Registers the spec's hooks: a database named after `tag` with a pool of `poolSize`, cleanups
 * after each test, and the database and every prefix's streams dropped after all of them.
 */
export function jetStreamBed(tag: string, poolSize: number): JetStreamBed {
  let testDatabase: TestDatabase | undefined;
  let database: Database | undefined;
  const prefixes: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    testDatabase = await createTestDatabase(tag);
    database = await openTestSchema(testDatabase.url, poolSize);
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
      await deleteNatsStreams(prefix, TEST_NATS_URL);
    }
  });

  return {
    get database() {
      return database!;
    },
    get databaseUrl() {
      return testDatabase!.url;
    },
    prefix() {
      const prefix = uniqueNatsPrefix(tag);
      prefixes.push(prefix);
      return prefix;
    },
    onCleanup(cleanup) {
      cleanups.push(cleanup);
    },
    async transport(options) {
      const transport = await JetStreamTransport.connect(options, silentLogger);
      cleanups.push(() => transport.close());
      return transport;
    },
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
