import { Row } from '@agp/database';

/**
 * T52. BEFORE_FORWARD (T1, T39): an upstream never acts on a hop the trail could lose.
 * BEFORE_ANSWER: a crash during the call can lose the record of a call the upstream made.
 */
export const DURABILITIES = ['BEFORE_FORWARD', 'BEFORE_ANSWER'] as const;
export type Durability = (typeof DURABILITIES)[number];

/** D51: what a tool definition that changed after it was pinned (or shadows a pinned one) gets. */
export const TOOL_DRIFT_ACTIONS = ['LOG', 'HOLD', 'BLOCK'] as const;
export type ToolDriftAction = (typeof TOOL_DRIFT_ACTIONS)[number];

/** D45, D57: when a person is told they talk to an AI (traffic.md T70). */
export const AI_DISCLOSURE_MODES = ['OFF', 'FIRST_MESSAGE', 'EVERY_MESSAGE'] as const;
export type AiDisclosureMode = (typeof AI_DISCLOSURE_MODES)[number];

/** D45, D57: whether agent content delivered to a person carries a machine-readable marking. */
export const CONTENT_MARKING_MODES = ['OFF', 'ON'] as const;
export type ContentMarkingMode = (typeof CONTENT_MARKING_MODES)[number];

/** payments.md PY6: a USD amount as the API takes it: digits, at most 18 decimals, no float. */
export const USD_AMOUNT = /^(0|[1-9]\d{0,11})(\.\d{1,18})?$/;

/** `1.500000` as `1.5`, `2.000` as `2`: PostgreSQL's numeric keeps its scale's zeros. */
export function canonicalUsd(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/** The longest disclosure text a tenant or channel may set. */
export const MAX_DISCLOSURE_TEXT = 500;

/** A tenant's traffic settings as the traffic paths read them (D34, D36, D40, T52). */
export interface TrafficSettings {
  tenantPerMinute: number | null;
  agentPerMinute: number | null;
  subscriptionPerMinute: number | null;
  contentCapture: boolean;
  hitlWaitSeconds: number;
  hitlExpirySeconds: number;
  durability: Durability;
  /** D55: the share of matching hops a SHADOW binding sees (0…1, default 1; G9). */
  shadowSampleRate: number;
  /** T85: browser origins the MCP path serves; null is the platform's own only. */
  allowedOrigins: string[] | null;
  /** D51: LOG, HOLD (the default) or BLOCK a drifted or shadowing tool. */
  toolDrift: ToolDriftAction;
  /** D45: OFF (the default), FIRST_MESSAGE or EVERY_MESSAGE of an agent to a person. */
  aiDisclosure: AiDisclosureMode;
  /** D57: the disclosure's words; null is the platform's (traffic.md T70). */
  aiDisclosureText: string | null;
  /** D45: OFF (the default) or ON. */
  contentMarking: ContentMarkingMode;
  /** D60, payments.md PY6: x402 payments above this many USD wait for a person; null: none do. */
  paymentReviewThreshold: string | null;
}

export const DEFAULT_TRAFFIC_SETTINGS: TrafficSettings = {
  tenantPerMinute: null,
  agentPerMinute: null,
  subscriptionPerMinute: null,
  contentCapture: false,
  hitlWaitSeconds: 30,
  hitlExpirySeconds: 86_400,
  durability: 'BEFORE_FORWARD',
  shadowSampleRate: 1,
  allowedOrigins: null,
  toolDrift: 'HOLD',
  aiDisclosure: 'OFF',
  aiDisclosureText: null,
  contentMarking: 'OFF',
  paymentReviewThreshold: null,
};

/** D42: what settings caches listen for, so nothing here calls into the traffic paths. */
export const TRAFFIC_SETTINGS_KIND = 'TRAFFIC_SETTINGS';

/** A `relay.traffic_settings` row as settings; the defaults when the tenant has none. */
export function trafficSettingsOf(row: Row | undefined): TrafficSettings {
  if (!row) {
    return DEFAULT_TRAFFIC_SETTINGS;
  }
  const limit = (value: unknown): number | null =>
    value === null || value === undefined ? null : Number(value);
  return {
    tenantPerMinute: limit(row.tenant_per_minute),
    agentPerMinute: limit(row.agent_per_minute),
    subscriptionPerMinute: limit(row.subscription_per_minute),
    contentCapture: row.content_capture === true,
    hitlWaitSeconds: Number(row.hitl_wait_seconds),
    hitlExpirySeconds: Number(row.hitl_expiry_seconds),
    durability: row.durability === 'BEFORE_ANSWER' ? 'BEFORE_ANSWER' : 'BEFORE_FORWARD',
    shadowSampleRate:
      row.shadow_sample_rate === undefined || row.shadow_sample_rate === null
        ? 1
        : Number(row.shadow_sample_rate),
    allowedOrigins: Array.isArray(row.allowed_origins) ? row.allowed_origins.map(String) : null,
    toolDrift: (TOOL_DRIFT_ACTIONS as readonly unknown[]).includes(row.tool_drift)
      ? (row.tool_drift as ToolDriftAction)
      : 'HOLD',
    aiDisclosure: oneOf(AI_DISCLOSURE_MODES, row.ai_disclosure, 'OFF'),
    aiDisclosureText: typeof row.ai_disclosure_text === 'string' ? row.ai_disclosure_text : null,
    contentMarking: oneOf(CONTENT_MARKING_MODES, row.content_marking, 'OFF'),
    paymentReviewThreshold: usdOf(row.payment_review_threshold),
  };
}

/** node-postgres reads `numeric` as a string, so no float ever holds the amount. */
function usdOf(value: unknown): string | null {
  return typeof value === 'string' ? canonicalUsd(value) : null;
}

function oneOf<T extends string>(values: readonly T[], value: unknown, fallback: T): T {
  return (values as readonly unknown[]).includes(value) ? (value as T) : fallback;
}
