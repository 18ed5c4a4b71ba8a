import { evidenceProblems } from '../../alerts/evidence-validation';
import { evaluationRunFinding } from './evaluation-run-detector';

describe(evaluationRunFinding.name, () => {
  const tenantId = '6f1c3a52-8d0e-4b7a-9c1e-3f2a1b0c9d8e';
  const failedRun = {
    tenantId,
    occurredAt: '2026-12-07T06:00:00.000Z',
    change: 'EVALUATION_RUN_FAILED',
    details: {
      packId: '0b8f9d8e-6c1a-4c39-9d59-2a7f1f7d2b11',
      packName: 'secrets stay in',
      runId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      status: 'COMPLETED',
      failed: 2,
      evaluationCount: 5,
      triggerSource: 'SCHEDULE',
    },
  };

  it('should find a MEDIUM tenant finding with valid evidence when evaluations of a run failed', () => {
    const sut = evaluationRunFinding(failedRun)!;

    expect(sut).toMatchObject({
      detector: 'EVALUATION_RUN_FAILED',
      severity: 'MEDIUM',
      subject: { type: 'TENANT', id: tenantId },
      summary: '2 of 5 evaluations of the pack secrets stay in failed',
      evidence: { kind: 'EVALUATION_RUN', failed: 2, evaluationCount: 5, status: 'COMPLETED' },
    });
    expect(evidenceProblems(sut.evidence)).toEqual([]);
  });

  it('should give one finding id per run, whenever it is told', () => {
    const again = evaluationRunFinding({ ...failedRun, occurredAt: '2026-12-07T07:00:00.000Z' })!;

    expect(again.findingId).toBe(evaluationRunFinding(failedRun)!.findingId);
  });

  it('should say a run that could not run could not run, with its error', () => {
    const sut = evaluationRunFinding({
      ...failedRun,
      details: {
        ...failedRun.details,
        status: 'FAILED',
        failed: 0,
        errorMessage: 'no evaluations',
      },
    })!;

    expect(sut.summary).toBe('the evaluation pack secrets stay in could not run');
    expect(sut.evidence).toMatchObject({ errorMessage: 'no evaluations' });
    expect(evidenceProblems(sut.evidence)).toEqual([]);
  });

  it('should find nothing in another policy change or a malformed one', () => {
    expect(evaluationRunFinding({ ...failedRun, change: 'BINDING_CREATED' })).toBeUndefined();
    expect(
      evaluationRunFinding({ ...failedRun, details: { ...failedRun.details, runId: 'x' } }),
    ).toBeUndefined();
    expect(
      evaluationRunFinding({ ...failedRun, details: { ...failedRun.details, status: 'PENDING' } }),
    ).toBeUndefined();
  });
});
