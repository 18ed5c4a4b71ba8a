export interface MonitorsOptions {
  schedule?: boolean;
  /** Where custom monitors read their metrics (M29, M26). */
  customMetricSource?: 'SERIES' | 'ROLLUPS' | 'EVENTS';
  /**
   * M61: count and share detectors are also judged over longer windows (default true); false
   * judges only each detector's own window, as before issue 38 (the quality bench's "today").
   */
  sustainedWindows?: boolean;
}

export const MONITORS_OPTIONS = Symbol.for('agp:audit:monitors-options');
