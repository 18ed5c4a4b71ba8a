import type { EvaluationEndpointType, ExpectedAction } from '@agp/contracts/enums';

import type { EvaluationPackResponse, EvaluationResponse, RunResponse } from './contracts/relay';
import { Page, api, query } from './client';

const LIST = query({ pageSize: 100 });

interface Endpoint {
  type: EvaluationEndpointType;
  id: string;
}

/** What the console's form sends of operation D27's evaluation: hops with an expected action. */
export interface NewEvaluation {
  name: string;
  source: Endpoint;
  target: Endpoint;
  input: string;
  hops: Array<{
    source: Endpoint;
    sink: Endpoint;
    expectedAction: ExpectedAction;
    toolName?: string;
  }>;
}

/** Evaluation packs (D27) and their runs (D15: a run starts PENDING and is polled). */
export const evaluations = {
  packs: () => api<Page<EvaluationPackResponse>>(`/relay/v1/evaluation-packs${LIST}`),
  createPack: (body: { name: string; description?: string }) =>
    api<EvaluationPackResponse>('/relay/v1/evaluation-packs', {
      method: 'POST',
      body: JSON.stringify({ ...body, enabled: true }),
    }),
  /** governance.md G13–G14: `schedule: ""` removes the schedule. */
  updatePack: (packId: string, body: { schedule?: string; alertOnFailure?: boolean }) =>
    api<EvaluationPackResponse>(`/relay/v1/evaluation-packs/${packId}`, {
      method: 'PATCH',
      body: JSON.stringify(body),
    }),
  evaluations: (packId: string) =>
    api<Page<EvaluationResponse>>(`/relay/v1/evaluation-packs/${packId}/evaluations${LIST}`),
  createEvaluation: (packId: string, evaluation: NewEvaluation) =>
    api<EvaluationResponse>(`/relay/v1/evaluation-packs/${packId}/evaluations`, {
      method: 'POST',
      body: JSON.stringify(evaluation),
    }),
  runs: (packId: string) =>
    api<Page<RunResponse>>(`/relay/v1/evaluation-packs/${packId}/runs${LIST}`),
  run: (packId: string, runId: string) =>
    api<RunResponse>(`/relay/v1/evaluation-packs/${packId}/runs/${runId}`),
  startRun: (packId: string) =>
    api<RunResponse>(`/relay/v1/evaluation-packs/${packId}/runs`, {
      method: 'POST',
      body: JSON.stringify({}),
    }),
};
