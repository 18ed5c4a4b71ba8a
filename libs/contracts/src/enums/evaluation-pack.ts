/** D27: the complete value sets of evaluation packs. */
export const EVALUATION_ENDPOINT_TYPES = [
  'AGENT',
  'USER',
  'CHANNEL',
  'MCP_SERVER',
  'LLM_GATEWAY',
] as const;
export type EvaluationEndpointType = (typeof EVALUATION_ENDPOINT_TYPES)[number];

export const EXPECTED_ACTIONS = [
  'LOG',
  'MASK',
  'BLOCK',
  'WARN',
  'HUMAN_REVIEW_REQUIRED',
  'ERROR',
] as const;
export type ExpectedAction = (typeof EXPECTED_ACTIONS)[number];

export const PATTERN_MODES = ['MUST_MATCH', 'MUST_NOT_MATCH'] as const;
export type PatternMode = (typeof PATTERN_MODES)[number];

export const ASSERTION_KINDS = [
  'ACTION',
  'MASKED_FIELD',
  'REASON_CONTAINS',
  'DETECTION',
  'POLICY_MATCHED',
] as const;
export type AssertionKind = (typeof ASSERTION_KINDS)[number];

export const RUN_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const TRIGGER_SOURCES = ['USER', 'API', 'SCHEDULE', 'POLICY_CHANGE'] as const;
export type TriggerSource = (typeof TRIGGER_SOURCES)[number];

export const EXECUTION_MODES = ['SIMULATED', 'LIVE'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];
