export interface MonitorsOptions {
  /** Run the minute tick on a timer (default true; tests call `DetectorTickService.tick` themselves). */
  schedule?: boolean;
  /**
   * Where custom monitors read their metrics: SERIES (default, M29) the per-minute cells the ingest
   * keeps for them; ROLLUPS (M26) the minute rollups for the counts they hold exactly and the events
   * for the rest; EVENTS every metric from the stored events (the bench compares them).
   */
  customMetricSource?: 'SERIES' | 'ROLLUPS' | 'EVENTS';
}

export const MONITORS_OPTIONS = Symbol.for('agp:audit:monitors-options');
