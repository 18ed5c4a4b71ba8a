import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Database, Row, queryNamed, str } from '@agp/database';
import { EventEnvelope } from '@agp/contracts';
import { EVENT_BROADCAST, EventBroadcast, StopListening } from '@agp/messaging';

import { RELAY_DATABASE } from '../../database/tokens';
import { INSTALLATION_KIND } from '../../marketplace/marketplace.types';
import {
  TRAFFIC_SETTINGS_KIND,
  TrafficSettings,
  trafficSettingsOf,
} from '../../traffic-settings/traffic-settings.types';
import { ExpiringCache } from './expiring-cache';
import { LlmRoute, readLlmRoute } from './llm-route';
import type { VirtualMember } from '../../mcp-servers/virtual/virtual-members';

/**
 * T2, T115: the longest a change takes to reach a replica that missed its broadcast: D32's and
 * D35's one second. An entry's age counts from the start of its read, so no change outlives it.
 */
export const TRAFFIC_CACHE_TTL_MS = 1_000;

export interface McpServerRoute {
  id: string;
  name: string;
  url: string;
  transport: string;
  /** The sealed upstream credential (D37), opened only when the relay calls the server. */
  credentialSealed?: string;
  credentialHeader?: string;
  timeoutMs: number;
  /** D52: a VIRTUAL server's members (it has no URL of its own). */
  members?: VirtualMember[];
  /** MK31: an entry a marketplace install made; its upstream is the publisher's MCP server. */
  installation?: InstalledTarget;
}

/** The installation behind an installed entry, read in the installing tenant (MK16, MK31). */
export interface InstalledTarget {
  id: string;
  /** The installing tenant, whose entry this is. */
  tenantId: string;
  publisherTenantId: string;
  /** The publisher's agent or MCP server: the relay's to call, never the installer's to see (MK4). */
  targetId: string;
  listingId: string;
  status: string;
  licensed: boolean;
}

/**
 * Who calls an MCP server: an agent (D32), a person's own MCP client (D43), or, in the publisher's
 * tenant, a marketplace installation forwarding its installer's call (MK32).
 */
export type McpParty = 'AGENT' | 'USER' | 'INSTALLATION';

/** MK32: an ACTIVE installation of this very server stands for the subscription (as MK17). */
const MCP_PARTY_JOIN = `LEFT JOIN relay.marketplace_installations c ON c.id = $2
                  AND c.publisher_tenant_id = s.tenant_id AND c.kind = 'MCP_SERVER'
                  AND c.target_id = s.id AND c.status = 'ACTIVE'`;

export interface McpRoute {
  tenantSlug?: string;
  agent?: { name: string; riskTier?: string };
  server: McpServerRoute;
  /** The AGENT_TO_MCP_SERVER subscription (D32), absent when the agent has none. */
  subscription?: { id: string; tools: string[] | null };
}

export type KillSwitchScope = 'TENANT' | 'AGENT' | 'MCP_SERVER' | 'LLM_GATEWAY' | 'CHANNEL';

export interface EngagedKillSwitch {
  id: string;
  scope: KillSwitchScope;
  targetId: string;
  reason: string;
}

export type { TrafficSettings };

/** What every hop reads of its tenant (T116). */
interface TenantTraffic {
  switches: EngagedKillSwitch[];
  settings: TrafficSettings;
}

const S = 'relay';

/** D35, D42: the events that announce a change to routes, switches or settings. */
const CHANGES = [
  'SUBSCRIPTION_CHANGED',
  'AGENT_LIFECYCLE',
  'MCP_LIFECYCLE',
  'LLM_LIFECYCLE',
  'GOVERNANCE_LIFECYCLE',
  'ADMIN_CHANGE',
] as const;

/**
 * An ADMIN_CHANGE changes traffic only when it names the traffic settings, a marketplace
 * installation (MK16: a suspension or a licence reaches the installer's routes within T2) or a
 * channel (CH19: a rotated secret or new settings count from the change, not from the TTL).
 */
function changesTraffic(envelope: EventEnvelope): boolean {
  if (envelope.type !== 'ADMIN_CHANGE') {
    return true;
  }
  const sink = (envelope.data as { sink?: { type?: unknown } } | undefined)?.sink;
  return (
    sink?.type === TRAFFIC_SETTINGS_KIND ||
    sink?.type === INSTALLATION_KIND ||
    sink?.type === 'CHANNEL'
  );
}

/**
 * T2, T50: as DecisionCache, a broadcast change drops the tenant's entries (before the commit
 * returns on the changing replica); a gap drops all; the TTL is only the net.
 */
@Injectable()
export class TrafficDirectory implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly routes = new ExpiringCache<McpRoute | undefined>(TRAFFIC_CACHE_TTL_MS);
  private readonly llmRoutes = new ExpiringCache<LlmRoute | undefined>(TRAFFIC_CACHE_TTL_MS);
  private readonly tenants = new ExpiringCache<TenantTraffic>(TRAFFIC_CACHE_TTL_MS);
  /** Caches of the protocol folders (a2a/ …), dropped with the directory's own (T2). */
  private readonly protocolCaches: ExpiringCache<unknown>[] = [];

  private stopListening?: StopListening;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(EVENT_BROADCAST) private readonly broadcast: EventBroadcast,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stopListening = await this.broadcast.listen(CHANGES, {
      onEvent: (envelope) => {
        if (changesTraffic(envelope)) {
          this.forgetTenant(envelope.tenantId);
        }
      },
      onGap: () => {
        this.routes.invalidate();
        this.llmRoutes.invalidate();
        this.tenants.invalidate();
        this.protocolCaches.forEach((cache) => cache.invalidate());
      },
    });
  }

  onApplicationShutdown(): void {
    this.stopListening?.();
  }

  /**
   * D43: a person's own MCP client takes `agentId`'s place, with USER_TO_MCP_SERVER; MK32: on the
   * publisher's side an installation does, its ACTIVE installation of the server the subscription.
   */
  mcpRoute(
    tenantId: string,
    agentId: string,
    serverId: string,
    party: McpParty = 'AGENT',
  ): Promise<McpRoute | undefined> {
    const installation = party === 'INSTALLATION';
    return this.routes.get(`${tenantId}:${agentId}:${serverId}:${party}`, () =>
      this.database.inTenant(tenantId, async (tx) => {
        const rows: Row[] = await queryNamed(
          tx,
          `SELECT s.id, s.name, s.url, s.transport, s.credential_ciphertext, s.credential_header,
                  s.timeout_ms, s.members, t.slug,
                  ${
                    installation
                      ? `'marketplace installation of ' || coalesce(c.installer_slug, c.tenant_id::text)
                           AS agent_name, NULL AS risk_tier, c.id AS subscription_id, NULL AS tools`
                      : 'a.name AS agent_name, a.risk_tier, sub.id AS subscription_id, sub.tools'
                  },
                  mi.id AS installation_id, mi.tenant_id AS installer_tenant_id, mi.publisher_tenant_id,
                  mi.target_id AS installed_target_id, mi.listing_id AS installed_listing_id,
                  mi.status AS installation_status, mi.licensed
             FROM ${S}.mcp_servers s
             ${
               installation
                 ? MCP_PARTY_JOIN
                 : `LEFT JOIN ${S}.agents a ON a.tenant_id = s.tenant_id AND a.id = $2
             LEFT JOIN ${S}.subscriptions sub ON sub.tenant_id = s.tenant_id
                  AND sub.kind = $4 AND sub.source_id = $2 AND sub.target_id = s.id`
             }
             LEFT JOIN ${S}.marketplace_installations mi ON mi.id = s.installation_id
                  AND mi.tenant_id = s.tenant_id
             LEFT JOIN ${S}.tenants t ON t.tenant_id = s.tenant_id
            WHERE s.tenant_id = $1 AND s.id = $3`,
          installation
            ? [tenantId, agentId, serverId]
            : [
                tenantId,
                agentId,
                serverId,
                party === 'USER' ? 'USER_TO_MCP_SERVER' : 'AGENT_TO_MCP_SERVER',
              ],
        );
        const row = rows[0];
        return row ? toRoute(row) : undefined;
      }),
    );
  }

  /** The LLM gateway, its providers in failover order, the agent and its subscription (D39). */
  llmRoute(tenantId: string, agentId: string, gatewayId: string): Promise<LlmRoute | undefined> {
    return this.llmRoutes.get(`${tenantId}:${agentId}:${gatewayId}`, () =>
      this.database.inTenant(tenantId, (tx) => readLlmRoute(tx, tenantId, agentId, gatewayId)),
    );
  }

  /** The tenant's engaged kill switches (D35); few, so one read serves every target. */
  async engagedKillSwitches(tenantId: string): Promise<EngagedKillSwitch[]> {
    return (await this.tenantTraffic(tenantId)).switches;
  }

  async settings(tenantId: string): Promise<TrafficSettings> {
    return (await this.tenantTraffic(tenantId)).settings;
  }

  private forgetTenant(tenantId: string): void {
    const ofTenant = (key: string): boolean => key === tenantId || key.startsWith(`${tenantId}:`);
    this.routes.invalidate(ofTenant);
    this.llmRoutes.invalidate(ofTenant);
    this.tenants.invalidate(ofTenant);
    this.protocolCaches.forEach((cache) => cache.invalidate(ofTenant));
  }

  /** T2: dropped on the same broadcasts, so every protocol's routes follow a change alike. */
  cacheFor<V>(): ExpiringCache<V> {
    const cache = new ExpiringCache<V>(TRAFFIC_CACHE_TTL_MS);
    this.protocolCaches.push(cache);
    return cache;
  }

  /** T116: what every hop reads of its tenant, both in one transaction, kept and dropped together. */
  private tenantTraffic(tenantId: string): Promise<TenantTraffic> {
    return this.tenants.get(tenantId, () =>
      this.database.inTenant(tenantId, async (tx) => {
        const switches: Row[] = await queryNamed(
          tx,
          `SELECT id, scope, target_id, reason FROM ${S}.kill_switches
            WHERE tenant_id = $1 AND released_at IS NULL`,
          [tenantId],
        );
        // Named (F53), so the columns trafficSettingsOf reads are listed rather than `*`.
        const settings: Row[] = await queryNamed(
          tx,
          `SELECT tenant_per_minute, agent_per_minute, subscription_per_minute, content_capture,
                  hitl_wait_seconds, hitl_expiry_seconds, durability, shadow_sample_rate,
                  allowed_origins, tool_drift, ai_disclosure, ai_disclosure_text, content_marking,
                  payment_review_threshold
             FROM ${S}.traffic_settings WHERE tenant_id = $1`,
          [tenantId],
        );
        return {
          switches: switches.map((r) => ({
            id: String(r.id),
            scope: String(r.scope) as KillSwitchScope,
            targetId: String(r.target_id),
            reason: String(r.reason),
          })),
          settings: trafficSettingsOf(settings[0]),
        };
      }),
    );
  }
}

function toRoute(row: Row): McpRoute {
  const agentName = str(row.agent_name);
  const riskTier = str(row.risk_tier);
  const subscriptionId = str(row.subscription_id);
  return {
    tenantSlug: str(row.slug),
    ...(agentName ? { agent: { name: agentName, ...(riskTier ? { riskTier } : {}) } } : {}),
    server: {
      id: String(row.id),
      name: String(row.name),
      url: str(row.url) ?? '',
      transport: String(row.transport),
      credentialSealed: str(row.credential_ciphertext),
      credentialHeader: str(row.credential_header),
      timeoutMs: Number(row.timeout_ms),
      ...(Array.isArray(row.members) ? { members: row.members as VirtualMember[] } : {}),
      ...(row.installation_id ? { installation: installedOf(row) } : {}),
    },
    ...(subscriptionId
      ? { subscription: { id: subscriptionId, tools: (row.tools as string[] | null) ?? null } }
      : {}),
  };
}

export function installedOf(row: Row): InstalledTarget {
  return {
    id: String(row.installation_id),
    tenantId: String(row.installer_tenant_id),
    publisherTenantId: String(row.publisher_tenant_id),
    targetId: String(row.installed_target_id),
    listingId: String(row.installed_listing_id),
    status: String(row.installation_status),
    licensed: row.licensed === true,
  };
}
