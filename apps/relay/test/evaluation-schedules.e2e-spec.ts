import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { EvaluationScheduleJob } from '../src/evaluation-packs/evaluation-schedule.job';
import { RelayBed } from './support/relay-bed';

type Json = Record<string, unknown>;

/** Issue 39 § 3, governance.md G13–G14: packs run on a cron schedule, and a failing run alerts. */
describe('scheduled evaluation packs', () => {
  const relay = RelayBed.use('pack-schedules');

  /** An evaluation that expects a BLOCK where nothing is bound (the decision is LOG): it fails. */
  const failingEvaluation: Json = {
    name: 'expects a block',
    source: { type: 'AGENT', id: randomUUID(), name: 'a' },
    target: { type: 'MCP_SERVER', id: randomUUID(), name: 'm' },
    input: '{"params": {"arguments": {"note": "hello"}}}',
    hops: [
      {
        source: { type: 'AGENT', id: randomUUID() },
        sink: { type: 'MCP_SERVER', id: randomUUID() },
        expectedAction: 'BLOCK',
      },
    ],
  };

  async function pack(body: Json): Promise<Json> {
    const created = await relay.call('POST', '/relay/v1/evaluation-packs', {
      name: `p-${randomUUID().slice(0, 8)}`,
      ...body,
    });
    expect(created.status).toBe(201);
    const added = await relay.call(
      'POST',
      `/relay/v1/evaluation-packs/${String(created.body.id)}/evaluations`,
      failingEvaluation,
    );
    expect(added.status).toBe(201);
    return created.body;
  }

  async function runsOf(packId: unknown): Promise<Json[]> {
    const runs = await relay.call<{ items: Json[] }>(
      'GET',
      `/relay/v1/evaluation-packs/${String(packId)}/runs`,
    );
    expect(runs.status).toBe(200);
    return runs.body.items;
  }

  function failureEvents(packId: unknown): Json[] {
    return relay.tap
      .ofType('POLICY_LIFECYCLE')
      .filter((e) => e.data.change === 'EVALUATION_RUN_FAILED')
      .map((e) => e.data.details as Json)
      .filter((details) => details.packId === packId);
  }

  it('should answer the schedule and its next UTC minute, and list every bad field', async () => {
    const created = await pack({ schedule: '*/5 * * * *', alertOnFailure: true });
    const next = new Date(String(created.nextRunAt));
    expect(created).toMatchObject({ schedule: '*/5 * * * *', alertOnFailure: true });
    expect(next.getUTCMinutes() % 5).toBe(0);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);

    const bad = await relay.call<{ errors: Json[] }>('POST', '/relay/v1/evaluation-packs', {
      name: 'bad schedule',
      schedule: '0 */5 * * * *',
      alertOnFailure: 'yes',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.field).sort()).toEqual(['alertOnFailure', 'schedule']);
    expect(JSON.stringify(bad.body.errors)).toContain('five cron fields');
  });

  it('should start one SCHEDULE run when due, move the next minute on, and alert on its failure', async () => {
    const created = await pack({ schedule: '*/10 * * * *', alertOnFailure: true });
    const due = new Date(new Date(String(created.nextRunAt)).getTime() + 1_000);
    const job = relay.app.get(EvaluationScheduleJob);

    // The job ticks for every pack of the database: another test's pack may be due earlier.
    await job.tick(new Date(due.getTime() - 2_000));
    expect(await runsOf(created.id)).toEqual([]);
    expect(await job.tick(due)).toBeGreaterThanOrEqual(1);
    const run = await eventually(async () => {
      const [latest] = await runsOf(created.id);
      expect(latest).toMatchObject({ triggerSource: 'SCHEDULE', status: 'COMPLETED', failed: 1 });
      return latest;
    });
    const after = await relay.call('GET', `/relay/v1/evaluation-packs/${String(created.id)}`);
    expect(new Date(String(after.body.nextRunAt)).getTime()).toBe(
      new Date(String(created.nextRunAt)).getTime() + 10 * 60_000,
    );
    expect(after.body.lastRun).toMatchObject({ runId: run.runId });
    expect(await runsOf(created.id)).toHaveLength(1);

    await eventually(() =>
      expect(failureEvents(created.id)).toEqual([
        expect.objectContaining({
          runId: run.runId,
          status: 'COMPLETED',
          triggerSource: 'SCHEDULE',
          failed: 1,
          evaluationCount: 1,
        }),
      ]),
    );
  });

  it('should start a LIVE SCHEDULE run for a pack whose scheduleExecutionMode is LIVE (G22)', async () => {
    const created = await pack({ schedule: '*/15 * * * *', scheduleExecutionMode: 'LIVE' });
    expect(created.scheduleExecutionMode).toBe('LIVE');
    const bad = await relay.call<{ errors: Json[] }>('POST', '/relay/v1/evaluation-packs', {
      name: 'bad mode',
      scheduleExecutionMode: 'REAL',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.field)).toEqual(['scheduleExecutionMode']);
    const due = new Date(new Date(String(created.nextRunAt)).getTime() + 1_000);

    expect(await relay.app.get(EvaluationScheduleJob).tick(due)).toBeGreaterThanOrEqual(1);

    await eventually(async () =>
      expect(await runsOf(created.id)).toEqual([
        expect.objectContaining({
          triggerSource: 'SCHEDULE',
          executionMode: 'LIVE',
          status: 'COMPLETED',
        }),
      ]),
    );
  });

  it('should run a due pack once when two replicas tick the same minute', async () => {
    const created = await pack({ schedule: '@hourly' });
    const due = new Date(new Date(String(created.nextRunAt)).getTime() + 1_000);
    const replica = await relay.replica();
    try {
      const started = await Promise.all([
        relay.app.get(EvaluationScheduleJob).tick(due),
        replica.get(EvaluationScheduleJob).tick(due),
      ]);
      expect(started.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
      await eventually(async () =>
        expect(await runsOf(created.id)).toEqual([
          expect.objectContaining({ triggerSource: 'SCHEDULE', status: 'COMPLETED' }),
        ]),
      );
    } finally {
      await replica.close();
    }
    expect(failureEvents(created.id)).toEqual([]);
  });

  it('should leave disabled and unscheduled packs alone', async () => {
    const disabled = await pack({ schedule: '* * * * *', enabled: false });
    const removed = await pack({ schedule: '* * * * *' });
    const cleared = await relay.call('PATCH', `/relay/v1/evaluation-packs/${String(removed.id)}`, {
      schedule: '',
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.schedule).toBeUndefined();
    expect(cleared.body.nextRunAt).toBeUndefined();

    await relay.app.get(EvaluationScheduleJob).tick(new Date(Date.now() + 3_600_000));
    expect(await runsOf(disabled.id)).toEqual([]);
    expect(await runsOf(removed.id)).toEqual([]);
  });
});
