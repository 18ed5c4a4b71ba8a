import { Evaluation, EvaluationRun } from '../evaluation-pack.types';

export type {
  EndpointReference,
  ExpectedPattern,
  Assertion,
  Hop,
  CheckVerdict,
  HopVerdict,
  EvaluationVerdict,
} from '../evaluation-pack.types';

/** An evaluation as the API shows it: the record as stored. */
export type EvaluationResponse = Evaluation;

/** A run as the API shows it: the record as stored. */
export type RunResponse = EvaluationRun;

export interface EvaluationPackResponse {
  id: string;
  name: string;
  description?: string;
  owner: { id: string; name: string };
  enabled: boolean;
  evaluations: EvaluationResponse[];
  lastRun?: RunResponse;
  createdAt: string;
  updatedAt: string;
}
