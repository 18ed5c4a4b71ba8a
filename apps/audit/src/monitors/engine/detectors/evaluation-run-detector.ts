import { EvaluationRunEvidence } from '@agp/contracts';

import { deterministicUuid } from '../deterministic-uuid';
import { Finding } from '../monitors.types';

/** What the relay's POLICY_LIFECYCLE of a failed pack run says (governance.md G13). */
export interface EvaluationRunEvent {
  tenantId: string;
  occurredAt: string;
  change: unknown;
  details?: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * M76: EVALUATION_RUN_FAILED, one finding per run of a pack that asked to be alerted: a run that
 * could not run (FAILED) or whose evaluations did not all pass. MEDIUM: the policies may no longer
 * do what the pack expects of them. The finding id is the run, so a run told twice is one finding.
 */
export function evaluationRunFinding(event: EvaluationRunEvent): Finding | undefined {
  const details = event.details ?? {};
  const { packId, runId, status } = details;
  if (
    event.change !== 'EVALUATION_RUN_FAILED' ||
    typeof packId !== 'string' ||
    !UUID.test(packId) ||
    typeof runId !== 'string' ||
    !UUID.test(runId) ||
    (status !== 'COMPLETED' && status !== 'FAILED')
  ) {
    return undefined;
  }
  const packName = typeof details.packName === 'string' ? details.packName.slice(0, 200) : '';
  const evidence: EvaluationRunEvidence = {
    kind: 'EVALUATION_RUN',
    subjectType: 'TENANT',
    subjectId: event.tenantId,
    packId,
    packName,
    runId,
    status,
    failed: countOf(details.failed),
    evaluationCount: countOf(details.evaluationCount),
    ...(typeof details.errorMessage === 'string'
      ? { errorMessage: details.errorMessage.slice(0, 500) }
      : {}),
  };
  const what =
    status === 'FAILED'
      ? `the evaluation pack ${packName} could not run`
      : `${evidence.failed} of ${evidence.evaluationCount} evaluations of the pack ${packName} failed`;
  return {
    findingId: deterministicUuid('evaluation-run', runId),
    detector: 'EVALUATION_RUN_FAILED',
    severity: 'MEDIUM',
    direction: 'SPIKE',
    subject: { type: 'TENANT', id: event.tenantId },
    summary: what,
    evidence,
    detectedAt: new Date(event.occurredAt),
  };
}

function countOf(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}
