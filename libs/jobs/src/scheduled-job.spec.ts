import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Database } from '@agp/database';
import { TestDatabase, createTestDatabase } from '@agp/testing';

import { startEmbeddedServer } from '../test/embedded-server';
import { ManualClock, gate, settle } from '../test/manual-clock';
import { TEST_SCHEMA, openTestSchema, silentLogger } from '../test/jobs-test-schema';
import { JobRuns } from './job-runs';
import { ScheduledJob } from './scheduled-job';

const MINUTE = 60_000;
const START = new Date('2030-01-01T00:00:00Z');

interface Replica {
  job: ScheduledJob<string>;
  runs: JobRuns;
}

describe(ScheduledJob.name, () => {
  let testDatabase: TestDatabase;
  let databaseA: Database;
  let databaseB: Database;
  let clock: ManualClock;
  let name: string;
  /** Every tick that ran: which replica, which slot. */
  let ran: Array<{ replica: string; slot: string }>;
  let running: number;
  let mostAtOnce: number;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('scheduled_job');
    databaseA = await openTestSchema(testDatabase.url);
    databaseB = await openTestSchema(testDatabase.url);
  });

  afterAll(async () => {
    await databaseA?.close();
    await databaseB?.close();
    await testDatabase?.drop();
  });

  beforeEach(() => {
    clock = new ManualClock(START);
    name = `job-${randomUUID()}`;
    ran = [];
    running = 0;
    mostAtOnce = 0;
  });

  function replica(
    label: string,
    database: Database,
    hold: (slot: Date) => Promise<void> = () => Promise.resolve(),
  ): Replica {
    const runs = new JobRuns(database);
    const job = new ScheduledJob({
      name,
      intervalMs: MINUTE,
      runs,
      clock,
      logger: silentLogger,
      work: async (slot) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        ran.push({ replica: label, slot: slot.toISOString() });
        await hold(slot);
        running -= 1;
        return label;
      },
    });
    return { job, runs };
  }

  const minute = (n: number): string => new Date(START.getTime() + n * MINUTE).toISOString();

  it('should run each interval once when two replicas tick it', async () => {
    const a = replica('A', databaseA);
    const b = replica('B', databaseB);
    a.job.start();
    b.job.start();

    for (let n = 1; n <= 3; n += 1) {
      clock.advance(MINUTE);
      await Promise.all([a.job.whenIdle(), b.job.whenIdle()]);
    }
    await Promise.all([a.job.stop(), b.job.stop()]);

    expect(ran.map((r) => r.slot)).toEqual([minute(1), minute(2), minute(3)]);
  });

  it('should never overlap a tick that outlasts its interval, on this replica or another', async () => {
    const held = gate();
    const started = gate();
    const a = replica('A', databaseA, async (slot) => {
      if (slot.toISOString() === minute(1)) {
        started.open();
        await held.promise;
      }
    });
    const b = replica('B', databaseB);
    a.job.start();
    clock.advance(MINUTE);
    await started.promise;
    b.job.start();

    for (let n = 2; n <= 4; n += 1) {
      clock.advance(MINUTE);
      await b.job.whenIdle();
    }
    const asked = a.job.runAt(new Date(clock.now()));
    await settle();
    expect(ran).toEqual([{ replica: 'A', slot: minute(1) }]);

    held.open();
    expect(await asked).toBe('A');
    clock.advance(MINUTE);
    await Promise.all([a.job.whenIdle(), b.job.whenIdle()]);
    await Promise.all([a.job.stop(), b.job.stop()]);

    expect(ran.map((r) => r.slot)).toEqual([minute(1), minute(4), minute(5)]);
    expect(mostAtOnce).toBe(1);
  });

  it('should wait for the tick in progress when stopped, and tick no more', async () => {
    const held = gate();
    const started = gate();
    let state = 'waiting';
    const a = replica('A', databaseA, async () => {
      state = 'running';
      started.open();
      await held.promise;
      state = 'finished';
    });
    a.job.start();
    clock.advance(MINUTE);
    await started.promise;

    const stopped = a.job.stop().then(() => state);
    await settle();
    held.open();

    expect(await stopped).toBe('finished');
    clock.advance(5 * MINUTE);
    await settle();
    expect(ran).toHaveLength(1);
    const [row] = await databaseA.asSystem((tx) =>
      tx.query<Array<{ finished: boolean }>>(
        `SELECT finished_at IS NOT NULL AS finished FROM ${TEST_SCHEMA}.job_runs WHERE job = $1`,
        [name],
      ),
    );
    expect(row?.finished).toBe(true);
  });

  it('should go on ticking after a tick that failed', async () => {
    let calls = 0;
    const job = new ScheduledJob({
      name,
      intervalMs: MINUTE,
      runs: new JobRuns(databaseA),
      clock,
      logger: silentLogger,
      work: () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error('boom')) : Promise.resolve(calls);
      },
    });
    job.start();
    clock.advance(MINUTE);
    await job.whenIdle();
    clock.advance(MINUTE);
    await job.whenIdle();
    await job.stop();

    expect(calls).toBe(2);
  });
});

describe(`${JobRuns.name} leases`, () => {
  let testDatabase: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('job_runs');
    database = await openTestSchema(testDatabase.url);
  });

  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  async function unfinishedRunOfAnother(job: string, heartbeatAgo: string): Promise<void> {
    await database.asSystem((tx) =>
      tx.query(
        `INSERT INTO ${TEST_SCHEMA}.job_runs (job, slot, replica, heartbeat_at)
         VALUES ($1, $2, 'another', now() - $3::interval)`,
        [job, START, heartbeatAgo],
      ),
    );
  }

  it('should refuse a tick while another replica runs the job, and a slot that already ran', async () => {
    const sut = new JobRuns(database);
    const job = `job-${randomUUID()}`;
    await unfinishedRunOfAnother(job, '1 second');

    expect(await sut.claim(job, new Date(START.getTime() + MINUTE))).toBe(false);
    expect(await sut.claim(job, START)).toBe(false);
  });

  it('should take the job over when the running replica stopped renewing its lease', async () => {
    const sut = new JobRuns(database, { leaseMs: 30_000 });
    const job = `job-${randomUUID()}`;
    await unfinishedRunOfAnother(job, '1 minute');

    expect(await sut.claim(job, new Date(START.getTime() + MINUTE))).toBe(true);
  });
});

describe(`${ScheduledJob.name} on the embedded PGlite`, () => {
  let directory: string;
  let embedded: { url: string; stop: () => Promise<void> };
  let database: Database;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'agp-jobs-'));
    embedded = await startEmbeddedServer(directory);
    database = await openTestSchema(embedded.url);
  }, 60_000);

  afterAll(async () => {
    await database?.close();
    await embedded?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it('should claim, renew and finish a tick whose work opens transactions of its own', async () => {
    const clock = new ManualClock(START);
    const runs = new JobRuns(database, { leaseMs: 3_000 });
    const inside = gate();
    const held = gate();
    const sut = new ScheduledJob({
      name: 'embedded',
      intervalMs: MINUTE,
      runs,
      clock,
      logger: silentLogger,
      work: async () => {
        inside.open();
        await held.promise;
        return database.asSystem((tx) => tx.query<Array<{ n: number }>>(`SELECT 1 AS n`));
      },
    });

    const first = sut.runAt(new Date(START.getTime() + 5_000));
    await inside.promise;
    clock.advance(runs.leaseMs);
    await settle();
    held.open();

    expect(await first).toEqual([{ n: 1 }]);
    expect(await sut.runAt(new Date(START.getTime() + 50_000))).toBeUndefined();
    const rows = await database.asSystem((tx) =>
      tx.query<Array<{ renewed: boolean; finished: boolean }>>(
        `SELECT heartbeat_at > started_at AS renewed, finished_at IS NOT NULL AS finished
         FROM ${TEST_SCHEMA}.job_runs WHERE job = 'embedded'`,
      ),
    );
    expect(rows).toEqual([{ renewed: true, finished: true }]);
  });
});
