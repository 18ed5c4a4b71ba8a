import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { HttpProblem } from '@agp/http';

import { AgentsRepository } from '../../agents/agents.repository';
import { RELAY_DATABASE } from '../../database/tokens';
import { HitlHolds } from '../../hitl/hitl-holds.service';
import { A2aRelayService } from '../../traffic/a2a/a2a-relay.service';
import { EvaluationTap, EvaluationTaps } from '../../traffic/pipeline/evaluation-taps';
import { MissingDouble } from '../../traffic/pipeline/sandbox-doubles';
import { SandboxDouble, TrafficCaller } from '../../traffic/pipeline/traffic-intake';
import { McpRelayService } from '../../traffic/mcp/mcp-relay.service';
import { LlmRelayService } from '../../traffic/llm/llm-relay.service';
import { EvaluationResponse, EvaluationVerdict } from '../dto/pack-responses';
import { LiveDouble } from '../evaluation-pack.types';
import { UnsendableInput, a2aRequestOf, mcpRequestOf } from './live-messages';
import { DrivenTraffic, driveA2a, driveLlm, driveMcp } from './live-traffic';
import { skipped } from '../verdicts';
import { liveVerdict, unsendable } from './live-verdicts';

/** G16: the paths a LIVE run drives, by the evaluation's target. */
const LIVE_TARGETS: ReadonlySet<string> = new Set(['MCP_SERVER', 'AGENT', 'LLM_GATEWAY']);

/** G20: how long one evaluation's traffic may take before the run moves on without it. */
export const LIVE_EVALUATION_TIMEOUT_MS = 30_000;

/** The run an evaluation's traffic belongs to (G16: its correlation id and marks). */
export interface LiveRunRef {
  tenantId: string;
  packId: string;
  runId: string;
  doubles: LiveDouble[];
}

/** G16: the correlation id every hop of a LIVE run carries, the one its alert names too (G14). */
export function liveCorrelationId(runId: string): string {
  return `evaluation-run-${runId}`;
}

/**
 * G16–G20: sends an evaluation's input through the real traffic path, in this process and as
 * the evaluation's source agent, and judges each expected hop against the hop that happened.
 */
@Injectable()
export class LiveEvaluations {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly agents: AgentsRepository,
    private readonly mcp: McpRelayService,
    private readonly a2a: A2aRelayService,
    private readonly llm: LlmRelayService,
    private readonly taps: EvaluationTaps,
    private readonly holds: HitlHolds,
  ) {}

  async run(
    run: LiveRunRef,
    evaluation: EvaluationResponse,
    signal: AbortSignal,
  ): Promise<EvaluationVerdict> {
    if (!evaluation.enabled) {
      return skipped(evaluation);
    }
    if (evaluation.source.type !== 'AGENT') {
      return unsendable(
        evaluation,
        `a LIVE run sends as the evaluation's source agent; the source is ${evaluation.source.type}`,
      );
    }
    // G16: only an agent that could get a token itself is sent as (not suspended, not deleted).
    const source = await this.database.inTenant(run.tenantId, (tx) =>
      this.agents.find(tx, run.tenantId, evaluation.source.id),
    );
    if (source?.status !== 'ACTIVE') {
      return unsendable(
        evaluation,
        `the source agent ${evaluation.source.id} is ${source ? source.status : 'not in the tenant'}; a LIVE run sends only as an active agent`,
      );
    }
    if (!LIVE_TARGETS.has(evaluation.target.type)) {
      return unsendable(
        evaluation,
        `a LIVE run reaches an MCP server, an agent or an LLM gateway; the target is ${evaluation.target.type}`,
      );
    }
    const correlationId = liveCorrelationId(run.runId);
    const { tap, close } = this.taps.listen(correlationId, {
      packId: run.packId,
      runId: run.runId,
      evaluationId: evaluation.id,
    });
    const double = doubleOf(run.doubles, evaluation.target);
    const caller: TrafficCaller = {
      tenantId: run.tenantId,
      agentId: evaluation.source.id,
      correlationId,
      headers: {},
      evaluation: double ? { double } : {},
    };
    let traffic: DrivenTraffic;
    try {
      traffic = await this.bounded(signal, (bounded) =>
        this.send({ ...caller, signal: bounded }, evaluation, tap, bounded),
      );
    } catch (error) {
      traffic = { firstHop: 0, ended: whyNotSent(error) };
    } finally {
      close();
      await this.withdrawHolds(run.tenantId, tap);
    }
    return liveVerdict(evaluation, tap.hops.slice(traffic.firstHop), traffic.ended);
  }

  private send(
    caller: TrafficCaller,
    evaluation: EvaluationResponse,
    tap: EvaluationTap,
    signal: AbortSignal,
  ): Promise<DrivenTraffic> {
    const targetId = evaluation.target.id;
    switch (evaluation.target.type) {
      case 'MCP_SERVER':
        return driveMcp(this.mcp, caller, targetId, mcpRequestOf(evaluation), tap, signal);
      case 'AGENT':
        return driveA2a(this.a2a, caller, targetId, a2aRequestOf(evaluation), signal);
      default:
        return driveLlm(this.llm, caller, targetId, evaluation);
    }
  }

  /** G20: the run's cancellation or the evaluation's time limit, whichever comes first. */
  private async bounded<T>(
    signal: AbortSignal,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const bounded = AbortSignal.any([signal, AbortSignal.timeout(LIVE_EVALUATION_TIMEOUT_MS)]);
    let onAbort: () => void = () => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () =>
        reject(
          new LiveTimeout(
            signal.aborted
              ? 'the run was cancelled'
              : `no answer within ${LIVE_EVALUATION_TIMEOUT_MS / 1000} s`,
          ),
        );
      bounded.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    try {
      return await Promise.race([work(bounded), aborted]);
    } finally {
      bounded.removeEventListener('abort', onAbort);
    }
  }

  /** G18: a hold a LIVE hop opened is recorded HELD and never released: it expires at once. */
  private async withdrawHolds(tenantId: string, tap: EvaluationTap): Promise<void> {
    for (const hop of tap.hops) {
      if (hop.hitlRequestId) {
        await this.holds.withdraw(
          tenantId,
          hop.hitlRequestId,
          `withdrawn: held by LIVE evaluation run ${tap.mark.runId}, whose traffic is never released`,
        );
      }
    }
  }
}

class LiveTimeout extends Error {}

function doubleOf(
  doubles: LiveDouble[],
  target: { type: string; id: string },
): SandboxDouble | undefined {
  const found = doubles.find((d) => d.targetType === target.type && d.targetId === target.id);
  if (!found) {
    return undefined;
  }
  return found.url ? { url: found.url } : { targetId: found.doubleId! };
}

/** Why an evaluation's traffic never got under way, or stopped (its hops: NOT_REACHED). */
function whyNotSent(error: unknown): string {
  if (error instanceof HttpProblem) {
    return `refused with HTTP ${error.status}: ${error.message}`;
  }
  if (
    error instanceof UnsendableInput ||
    error instanceof MissingDouble ||
    error instanceof LiveTimeout
  ) {
    return error.message;
  }
  return `the traffic failed: ${error instanceof Error ? error.message : String(error)}`;
}
