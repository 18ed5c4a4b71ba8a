import { Detector } from '@agp/contracts';

/** The 19 detectors this service evaluates from traffic (the governance ones need registry data). */
export const TRAFFIC_DETECTORS = [
  'POLICY_INVOCATION_ANOMALY',
  'POLICY_BLOCK_ANOMALY',
  'POLICY_WARN_ANOMALY',
  'POLICY_HITL_HOLD_ANOMALY',
  'AGENT_VOLUME_ANOMALY',
  'USER_VOLUME_ANOMALY',
  'MCP_SERVER_VOLUME_ANOMALY',
  'LLM_GATEWAY_VOLUME_ANOMALY',
  'CHANNEL_VOLUME_ANOMALY',
  'TENANT_ERROR_SPIKE',
  'TENANT_WARN_SPIKE',
  'TENANT_HITL_SPIKE',
  'LLM_PROVIDER_ERROR_RATE_SPIKE',
  'LLM_GATEWAY_FAILOVER_SPIKE',
  'MCP_SERVER_ERROR_RATE_SPIKE',
  'DORMANT_AGENT_REACTIVATION',
  'DORMANT_USER_REACTIVATION',
  'NOVEL_TOOL_CALL',
  'NEW_MCP_SERVER_BINDING',
] as const satisfies readonly Detector[];
export type TrafficDetector = (typeof TRAFFIC_DETECTORS)[number];

/** The five detectors evaluated from the governance records (issue 17). */
export const GOVERNANCE_DETECTORS = [
  'GOVERNANCE_REVIEW_DUE',
  'GOVERNANCE_ORPHANED_OWNER',
  'GOVERNANCE_UNCLASSIFIED_ACTIVE',
  'GOVERNANCE_STALE_ATTESTATION',
  'GOVERNANCE_INCIDENT_REPORT_DUE',
] as const satisfies readonly Detector[];
export type GovernanceDetector = (typeof GOVERNANCE_DETECTORS)[number];

/** Raised as their event is stored, not at the tick (M59, D51). */
export const EVENT_DETECTORS = [
  'TOOL_DEFINITION_DRIFT',
  'EVALUATION_RUN_FAILED',
  'BUDGET_SOFT_LIMIT',
] as const satisfies readonly Detector[];
export type EventDetector = (typeof EVENT_DETECTORS)[number];

export const ALL_DETECTORS: readonly Detector[] = [
  ...TRAFFIC_DETECTORS,
  ...GOVERNANCE_DETECTORS,
  ...EVENT_DETECTORS,
];

/** A detector ignores the fields that do not apply to it (M7). */
// A type (not an interface), so that it fits the event's Record<string, unknown> settings.
export type DetectorSettings = {
  enabled: boolean;
  /** Minutes of recent traffic compared with the baseline (5 to 60). */
  windowMinutes: number;
  /** Days of history: the baseline of rate detectors, the novelty lookback. */
  lookbackDays: number;
  /** SPIKE when observed / baseline is at least this. */
  spikeRatio: number;
  /** DROP when observed / baseline is at most this; 0 turns DROP off. */
  dropRatio: number;
  /**
   * Significance a finding needs, as a normal's standard deviations: the window's count (or share)
   * must be at most as likely under the subject's own baseline as a normal this far out (M17).
   */
  zScore: number;
  /** Novelty and dormancy: events needed. Count and share tests no longer read it (M17). */
  minVolume: number;
  /** Kept for the configuration API; count and share tests no longer read it (M17). */
  minBaselineVolume: number;
  /** Error-rate detectors: the observed error rate must reach this percentage. */
  minRatePct: number;
  /** Dormant detectors: silence of at least this many days before the activity. */
  dormantDays: number;
};

export interface MonitorSettings {
  /** A dismissed alert suppresses new findings for its detector and subject this long (M9). */
  dismissSuppressionHours: number;
  detectors: Record<Detector, DetectorSettings>;
}

const RATE: DetectorSettings = {
  enabled: true,
  windowMinutes: 15,
  lookbackDays: 7,
  spikeRatio: 3,
  dropRatio: 0.25,
  zScore: 5,
  minVolume: 30,
  minBaselineVolume: 40,
  minRatePct: 0,
  dormantDays: 0,
};

const SPIKE_ONLY: DetectorSettings = { ...RATE, dropRatio: 0, minVolume: 20 };
const ERROR_RATE: DetectorSettings = {
  ...SPIKE_ONLY,
  zScore: 4,
  minVolume: 10,
  minBaselineVolume: 30,
  minRatePct: 5,
};
const DORMANT: DetectorSettings = { ...RATE, dropRatio: 0, minVolume: 1, dormantDays: 7 };
const NOVELTY: DetectorSettings = { ...RATE, dropRatio: 0, minVolume: 1 };
/** Governance detectors read only `enabled`; UNCLASSIFIED_ACTIVE also `windowMinutes` (M20). */
const GOVERNANCE: DetectorSettings = {
  ...RATE,
  windowMinutes: 60,
  lookbackDays: 1,
  dropRatio: 0,
  minVolume: 1,
  minBaselineVolume: 1,
};

export const DEFAULT_DETECTOR_SETTINGS: Readonly<Record<Detector, DetectorSettings>> = {
  POLICY_INVOCATION_ANOMALY: RATE,
  POLICY_BLOCK_ANOMALY: { ...RATE, minVolume: 20, minBaselineVolume: 30 },
  POLICY_WARN_ANOMALY: { ...RATE, minVolume: 20, minBaselineVolume: 30 },
  POLICY_HITL_HOLD_ANOMALY: { ...RATE, minVolume: 10, minBaselineVolume: 20 },
  AGENT_VOLUME_ANOMALY: RATE,
  USER_VOLUME_ANOMALY: RATE,
  MCP_SERVER_VOLUME_ANOMALY: RATE,
  LLM_GATEWAY_VOLUME_ANOMALY: RATE,
  CHANNEL_VOLUME_ANOMALY: RATE,
  TENANT_ERROR_SPIKE: SPIKE_ONLY,
  TENANT_WARN_SPIKE: SPIKE_ONLY,
  TENANT_HITL_SPIKE: { ...SPIKE_ONLY, minVolume: 10 },
  LLM_PROVIDER_ERROR_RATE_SPIKE: ERROR_RATE,
  LLM_GATEWAY_FAILOVER_SPIKE: { ...SPIKE_ONLY, minVolume: 10 },
  MCP_SERVER_ERROR_RATE_SPIKE: ERROR_RATE,
  DORMANT_AGENT_REACTIVATION: DORMANT,
  DORMANT_USER_REACTIVATION: DORMANT,
  NOVEL_TOOL_CALL: NOVELTY,
  NEW_MCP_SERVER_BINDING: NOVELTY,
  GOVERNANCE_REVIEW_DUE: GOVERNANCE,
  GOVERNANCE_ORPHANED_OWNER: GOVERNANCE,
  GOVERNANCE_UNCLASSIFIED_ACTIVE: GOVERNANCE,
  GOVERNANCE_STALE_ATTESTATION: GOVERNANCE,
  GOVERNANCE_INCIDENT_REPORT_DUE: GOVERNANCE,
  // M59: reads only `enabled`.
  TOOL_DEFINITION_DRIFT: GOVERNANCE,
  // M76: reads only `enabled`.
  EVALUATION_RUN_FAILED: GOVERNANCE,
  // spend.md SP11: reads only `enabled`.
  BUDGET_SOFT_LIMIT: GOVERNANCE,
};

export const DEFAULT_DISMISS_SUPPRESSION_HOURS = 24;

/** Stored overrides of one tenant: only what differs from the defaults is kept. */
export interface StoredMonitorSettings {
  dismissSuppressionHours?: number;
  detectors?: Partial<Record<Detector, Partial<DetectorSettings>>>;
}

export function effectiveSettings(stored: StoredMonitorSettings | undefined): MonitorSettings {
  const detectors = {} as Record<Detector, DetectorSettings>;
  for (const detector of ALL_DETECTORS) {
    detectors[detector] = {
      ...DEFAULT_DETECTOR_SETTINGS[detector],
      ...stored?.detectors?.[detector],
    };
  }
  return {
    dismissSuppressionHours: stored?.dismissSuppressionHours ?? DEFAULT_DISMISS_SUPPRESSION_HOURS,
    detectors,
  };
}

export function changedDetectors(before: MonitorSettings, after: MonitorSettings): Detector[] {
  return ALL_DETECTORS.filter(
    (detector) =>
      JSON.stringify(before.detectors[detector]) !== JSON.stringify(after.detectors[detector]),
  );
}
