import { Row } from '@agp/database';

/** A tenant's traffic settings as the traffic paths read them (D34, D36, D40). */
export interface TrafficSettings {
  tenantPerMinute: number | null;
  agentPerMinute: number | null;
  subscriptionPerMinute: number | null;
  contentCapture: boolean;
  hitlWaitSeconds: number;
  hitlExpirySeconds: number;
}

export const DEFAULT_TRAFFIC_SETTINGS: TrafficSettings = {
  tenantPerMinute: null,
  agentPerMinute: null,
  subscriptionPerMinute: null,
  contentCapture: false,
  hitlWaitSeconds: 30,
  hitlExpirySeconds: 86_400,
};

/**
 * What a change of the settings is announced as (D42's ADMIN_CHANGE names it in its `sink`):
 * what a cache of them listens for, so nothing here calls into the traffic paths.
 */
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
  };
}
