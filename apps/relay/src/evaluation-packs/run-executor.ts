import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { ClaimLoop, ClaimLoopWorker } from '@agp/jobs';
import { EventOutbox } from '@agp/messaging';
import { Logger } from 'pino';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { EndpointRef } from '../decisions/decision.types';
import { EndpointDirectoryRepository } from '../decisions/endpoint-directory.repository';
import { PolicyDecisionService } from '../decisions/policy-decision.service';
import { EndpointReference } from './dto/pack-responses';
import { EvaluationPacksRepository } from './evaluation-packs.repository';
import { EvaluationVerdict } from './evaluation-pack.types';
import { ClaimedRun, EvaluationRunsRepository, RunOutcome } from './evaluation-runs.repository';
import { LiveEvaluations } from './live/live-evaluations';
import { simulateEvaluation } from './simulate-evaluation';

export const RUN_POLL_INTERVAL = Symbol('relay:run-poll-interval');

/** G21: how often a running run looks whether it was canceled. */
const CANCEL_CHECK_MS = 500;
/** G20: every this many checks, the run also beats (a RUNNING run without one for 10 min is taken over). */
const CHECKS_PER_HEARTBEAT = 60;

/**
 * D27, F30: a claim loop woken by runs started here, polling for those of other replicas or
 * left behind; `SKIP LOCKED` keeps two replicas apart.
 */
@Injectable()
export class RunExecutor extends ClaimLoopWorker<ClaimedRun> {
  protected readonly loop: ClaimLoop<ClaimedRun>;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly runs: EvaluationRunsRepository,
    private readonly packs: EvaluationPacksRepository,
    private readonly directory: EndpointDirectoryRepository,
    private readonly decisions: PolicyDecisionService,
    private readonly live: LiveEvaluations,
    @Inject(RUN_POLL_INTERVAL) pollIntervalMs: number,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    super();
    this.loop = new ClaimLoop({
      name: 'evaluation-runs',
      pollIntervalMs,
      claim: async () => {
        const claimed = await this.database.asSystem((tx) => this.runs.claimPending(tx));
        return claimed ? [claimed] : [];
      },
      handle: (claimed) => this.run(claimed),
      logger,
    });
  }

  private async run(claimed: ClaimedRun): Promise<void> {
    const outcome = await this.execute(claimed);
    await this.database.inTenant(claimed.tenantId, async (tx) => {
      if (!(await this.runs.finish(tx, claimed.tenantId, claimed.runId, outcome))) {
        return; // G21: canceled meanwhile; what it found is not kept
      }
      await this.packs.setLastRun(tx, claimed.tenantId, claimed.packId, claimed.runId);
      await this.alertIfFailed(tx, claimed, outcome);
    });
  }

  /** G14: in the run's own transaction, so a failed run and its alert are stored together. */
  private async alertIfFailed(tx: Tx, claimed: ClaimedRun, outcome: RunOutcome): Promise<void> {
    const isFailing = outcome.status === 'FAILED' || outcome.failed > 0;
    if (!isFailing || !(await this.packs.alertsOnFailure(tx, claimed.tenantId, claimed.packId))) {
      return;
    }
    const run = (await this.runs.find(tx, claimed.tenantId, claimed.packId, claimed.runId))!;
    await this.outbox.add(
      tx,
      'POLICY_LIFECYCLE',
      { tenantId: claimed.tenantId, correlationId: `evaluation-run-${claimed.runId}` },
      {
        change: 'EVALUATION_RUN_FAILED',
        summary:
          outcome.status === 'FAILED'
            ? `evaluation pack ${run.packName} could not run`
            : `evaluation pack ${run.packName}: ${outcome.failed} of ${outcome.evaluationCount} evaluations failed`,
        details: {
          packId: claimed.packId,
          packName: run.packName,
          runId: claimed.runId,
          status: outcome.status,
          triggerSource: run.triggerSource,
          evaluationCount: outcome.evaluationCount,
          failed: outcome.failed,
          ...(outcome.errorMessage ? { errorMessage: outcome.errorMessage.slice(0, 500) } : {}),
        },
      },
    );
  }

  private async execute(claimed: ClaimedRun): Promise<RunOutcome> {
    const { tenantId, packId, executionMode } = claimed;
    const started = performance.now();
    const failed = (errorMessage: string): RunOutcome => ({
      status: 'FAILED',
      evaluationCount: 0,
      passed: 0,
      failed: 0,
      skipped: 0,
      durationMs: Math.round(performance.now() - started),
      errorMessage,
      results: [],
    });
    if (executionMode === 'LIVE' && claimed.isResumed) {
      // G20: its traffic may have reached the targets already; it is never sent twice.
      return failed('the relay running this LIVE run stopped; its traffic is not sent again');
    }
    const canceled = new AbortController();
    let checks = 0;
    const watch = setInterval(() => {
      const beat = ++checks % CHECKS_PER_HEARTBEAT === 0;
      void this.database
        .inTenant(tenantId, (tx) => this.runs.isCanceled(tx, tenantId, claimed.runId, beat))
        .then((isCanceled) => isCanceled && canceled.abort())
        .catch(() => undefined);
    }, CANCEL_CHECK_MS);
    try {
      const [evaluations, doubles] = await this.database.inTenant(tenantId, async (tx) => [
        await this.packs.listEvaluations(tx, tenantId, [packId]),
        await this.packs.liveDoubles(tx, tenantId, packId),
      ]);
      const describe = (endpoint: EndpointReference) => this.describe(tenantId, endpoint);
      const run = { tenantId, packId, runId: claimed.runId, doubles };
      const results: EvaluationVerdict[] = [];
      // G20: one evaluation at a time, so a LIVE run's traffic is one caller's at a time.
      for (const evaluation of evaluations) {
        if (canceled.signal.aborted) {
          break;
        }
        results.push(
          executionMode === 'LIVE'
            ? await this.live.run(run, evaluation, canceled.signal)
            : await simulateEvaluation(
                tenantId,
                evaluation,
                (input) => this.decisions.decide(input),
                describe,
              ),
        );
      }
      return {
        status: 'COMPLETED',
        evaluationCount: results.length,
        passed: results.filter((r) => r.status === 'PASSED').length,
        failed: results.filter((r) => r.status === 'FAILED').length,
        skipped: results.filter((r) => r.status === 'SKIPPED').length,
        durationMs: Math.round(performance.now() - started),
        results,
      };
    } catch (error) {
      return failed(error instanceof Error ? error.message : String(error));
    } finally {
      clearInterval(watch);
    }
  }

  private async describe(tenantId: string, endpoint: EndpointReference): Promise<EndpointRef> {
    const known = await this.database.inTenant(tenantId, (tx) =>
      this.directory.describe(tx, tenantId, endpoint.type as EndpointRef['type'], endpoint.id),
    );
    const name = endpoint.name ?? known?.name;
    return {
      type: endpoint.type as EndpointRef['type'],
      id: endpoint.id,
      ...(name ? { name } : {}),
      ...(known?.riskTier ? { riskTier: known.riskTier } : {}),
    };
  }
}
