import {
  AssertionKind,
  ExecutionMode,
  ExpectedAction,
  PatternMode,
  RunStatus,
  TriggerSource,
} from '@agp/contracts';

export interface EndpointReference {
  type: string;
  id: string;
  name?: string;
}

export interface ExpectedPattern {
  patternId: string;
  label?: string;
  pattern: string;
  mode: PatternMode;
  flags?: string;
}

export interface Assertion {
  checkId: string;
  kind: AssertionKind;
  subject?: string;
  expected: string;
}

export interface Hop {
  hopId: string;
  source: EndpointReference;
  sink: EndpointReference;
  expectedAction?: ExpectedAction;
  expectedPolicyIds: string[];
  expectedMaskedFields: string[];
  expectedPatterns: ExpectedPattern[];
  notes?: string;
  assertions: Assertion[];
  protocol?: string;
  direction?: string;
  method?: string;
  toolName?: string;
}

/** One evaluation of a pack: a message sent from source to target and what each hop should do. */
export interface Evaluation {
  id: string;
  packId: string;
  name: string;
  description?: string;
  source: EndpointReference;
  target: EndpointReference;
  input: string;
  hops: Hop[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** One comparison of a hop: what was expected and what came out. */
export interface CheckVerdict {
  check: string;
  checkId?: string;
  kind?: string;
  subject?: string;
  expected: string;
  actual: string;
  passed: boolean;
}

export interface HopVerdict {
  hopId: string;
  passed: boolean;
  action: string;
  expectedAction?: string;
  checks: CheckVerdict[];
  policies: Array<{
    groupId: string;
    groupName: string;
    groupVersion: string;
    action: string;
    error?: string;
  }>;
  maskedMessage: { text: string; json: unknown };
}

export interface EvaluationVerdict {
  evaluationId: string;
  name: string;
  status: 'PASSED' | 'FAILED' | 'SKIPPED';
  hops: HopVerdict[];
}

/** One run of a pack; `results` only when read one run at a time. */
export interface EvaluationRun {
  runId: string;
  packId: string;
  packName: string;
  status: RunStatus;
  triggeredBy?: { id: string; name: string };
  triggerSource: TriggerSource;
  evaluationCount: number;
  passed: number;
  failed: number;
  skipped: number;
  durationMs?: number;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  errorMessage?: string;
  executionMode: ExecutionMode;
  /** Per evaluation and per hop (GET of one run only). */
  results?: EvaluationVerdict[];
}
