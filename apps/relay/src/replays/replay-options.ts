/** How the replay worker runs (governance.md G10). */
export interface ReplayOptions {
  /** How often a replica looks for replays requested on another one (a net: F54). */
  pollIntervalMs: number;
  /** How long a claim holds without progress before another replica may take the replay over. */
  leaseMs: number;
  /** Hops asked of the audit trail per page (at most MAX_RECORDED_HOPS_PAGE). */
  pageSize: number;
  /** How long the audit service may take to answer one page. */
  pageTimeoutMs: number;
}

export const REPLAY_OPTIONS = Symbol('relay:replay-options');

export const DEFAULT_REPLAY_OPTIONS: ReplayOptions = {
  pollIntervalMs: 5_000,
  leaseMs: 60_000,
  pageSize: 200,
  pageTimeoutMs: 15_000,
};
