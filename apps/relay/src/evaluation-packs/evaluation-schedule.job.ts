import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../database/tokens';
import { EvaluationPacksRepository } from './evaluation-packs.repository';
import { EvaluationRunsRepository } from './evaluation-runs.repository';
import { nextRunAfter } from './pack-schedule';
import { RunExecutor } from './run-executor';

/** Packs started per tick; the rest are due at the next one. */
const PACKS_PER_TICK = 500;

/**
 * G13: every minute, once across replicas (F30), each due scheduled pack gets a SCHEDULE run and
 * its next due minute, in one transaction; the executors run them. A relay that was down runs a
 * missed schedule once, not once per missed minute.
 */
@Injectable()
export class EvaluationScheduleJob {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly packs: EvaluationPacksRepository,
    private readonly runs: EvaluationRunsRepository,
    private readonly executor: RunExecutor,
  ) {}

  async tick(now = new Date()): Promise<number> {
    const started = await this.database.asSystem(async (tx) => {
      const due = await this.packs.claimDue(tx, now, PACKS_PER_TICK);
      for (const pack of due) {
        await this.runs.insert(tx, pack.tenantId, {
          id: randomUUID(),
          packId: pack.id,
          packName: pack.name,
          triggerSource: 'SCHEDULE',
          executionMode: pack.executionMode,
        });
        await this.packs.setSchedule(
          tx,
          pack.tenantId,
          pack.id,
          pack.schedule,
          nextRunAfter(pack.schedule, now),
        );
      }
      return due.length;
    });
    if (started > 0) {
      this.executor.kick();
    }
    return started;
  }
}
