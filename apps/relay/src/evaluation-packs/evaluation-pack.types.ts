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

/**
 * G19: a sandbox double for one target of a pack's LIVE runs: `url` (reached without the
 * target's credential) or `doubleId`, a registered MCP server or agent of the tenant.
 */
export interface LiveDouble {
  targetType: 'MCP_SERVER' | 'AGENT';
  targetId: string;
  url?: string;
  doubleId?: string;
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
  /** G17, LIVE runs only: the reasons of the decision applied (a refusal's before any policy too). */
  reasons?: string[];
  /** G17, LIVE runs only: the hop's audit event id (D33's `decisionId`). */
  decisionId?: string;
  /** G17, LIVE runs only: what became of the hop (NOT_REACHED: the traffic never made it). */
  outcome?: 'DELIVERED' | 'REFUSED' | 'HELD' | 'NOT_REACHED';
  /** G18, LIVE runs only: the hold a HELD hop opened, withdrawn (EXPIRED) at once. */
  hitlRequestId?: string;
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
