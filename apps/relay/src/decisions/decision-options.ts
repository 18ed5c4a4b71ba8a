export interface DecisionOptions {
  /** Safety net only: a cached tenant snapshot older than this is reloaded even without an event (R3). */
  cacheTtlMs: number;
  /** D22 / POLICY.md: budget of one policy evaluation; over it the binding yields ERROR. */
  evaluationTimeoutMs: number;
}

export const DECISION_OPTIONS = Symbol('relay:decision-options');
