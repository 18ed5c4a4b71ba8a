export interface MonitorsOptions {
  schedule?: boolean;
  /** Where custom monitors read their metrics (M29, M26). */
  customMetricSource?: 'SERIES' | 'ROLLUPS' | 'EVENTS';
}

export const MONITORS_OPTIONS = Symbol.for('agp:audit:monitors-options');
