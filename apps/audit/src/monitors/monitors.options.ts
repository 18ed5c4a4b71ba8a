export interface MonitorsOptions {
  /** Run the minute tick on a timer (default true; tests call `DetectorTickService.tick` themselves). */
  schedule?: boolean;
  /**
   * Where custom monitors read their counts (M26): ROLLUPS (default) takes the minute rollups for
   * the metrics they hold exactly and the events for the rest; EVENTS reads every metric from the
   * stored events (the bench compares the two).
   */
  customMetricSource?: 'ROLLUPS' | 'EVENTS';
}

export const MONITORS_OPTIONS = Symbol.for('agp:audit:monitors-options');
