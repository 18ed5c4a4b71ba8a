export interface MonitorsOptions {
  /** Run the minute tick on a timer (default true; tests call `DetectorTickService.tick` themselves). */
  schedule?: boolean;
}

export const MONITORS_OPTIONS = Symbol.for('agp:audit:monitors-options');
