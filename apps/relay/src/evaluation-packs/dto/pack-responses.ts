import { ExecutionMode } from '@agp/contracts';

import { Evaluation, EvaluationRun, LiveDouble } from '../evaluation-pack.types';

export type {
  EndpointReference,
  ExpectedPattern,
  Assertion,
  Hop,
  CheckVerdict,
  HopVerdict,
  EvaluationVerdict,
  LiveDouble,
} from '../evaluation-pack.types';

// The API shows these records as the repositories read them; the interfaces give the OpenAPI
// schemas (F24) and the console's contracts their names.
/* eslint-disable @typescript-eslint/no-empty-object-type -- a named schema, nothing to add */
export interface EvaluationResponse extends Evaluation {}

export interface RunResponse extends EvaluationRun {}

export interface EvaluationPackResponse {
  id: string;
  name: string;
  description?: string;
  owner: { id: string; name: string };
  enabled: boolean;
  /** G13: the cron schedule of SCHEDULE runs (UTC), when one is set. */
  schedule?: string;
  /** G13: when the next SCHEDULE run is due. */
  nextRunAt?: string;
  /** G14: whether a failing run raises an EVALUATION_RUN_FAILED alert. */
  alertOnFailure: boolean;
  /** G19: the sandbox doubles LIVE runs reach in place of these targets' upstreams. */
  liveDoubles: LiveDouble[];
  /** G22: how its SCHEDULE runs execute. */
  scheduleExecutionMode: ExecutionMode;
  evaluations: EvaluationResponse[];
  lastRun?: RunResponse;
  createdAt: string;
  updatedAt: string;
}
