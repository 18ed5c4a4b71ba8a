import { Inject, Injectable } from '@nestjs/common';
import { Database, Row, str } from '@agp/database';

import { ChannelSecrets, ChannelSettings } from '../../channels/channel-config';
import { RELAY_DATABASE } from '../../database/tokens';
import { A2aTarget } from '../a2a/a2a-directory';
import { AgentCardJson } from '../a2a/agent-card';
import { ExpiringCache } from '../pipeline/expiring-cache';
import { OpenedCredentials } from '../pipeline/opened-credentials';
import { TrafficDirectory } from '../pipeline/traffic-directory';

/** A registered channel as its traffic needs it (D56). */
export interface ChannelEntry {
  id: string;
  name: string;
  kind: string;
  settings: ChannelSettings;
  secretsSealed?: string;
}

/** What carries one channel's events: the channel, its subscription and the agent it names. */
export interface ChannelRoute {
  tenantId: string;
  tenantSlug?: string;
  channel: ChannelEntry;
  /** CH5: the CHANNEL_TO_AGENT subscription (the oldest, when there are several). */
  subscription?: { id: string };
  agent?: A2aTarget;
}

/** T2: cached like every route; the broadcast drops it, the TTL is the net. */
@Injectable()
export class ChannelDirectory {
  private readonly routes: ExpiringCache<ChannelRoute | undefined>;
  /** A channel's tenant never changes: kept once read (a removed channel has no route). */
  private readonly tenants = new Map<string, string>();

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly credentials: OpenedCredentials,
    directory: TrafficDirectory,
  ) {
    this.routes = directory.cacheFor<ChannelRoute | undefined>();
  }

  /** The channel's tenant, read without one (the platform's event names only the channel). */
  async tenantOf(channelId: string): Promise<string | undefined> {
    const known = this.tenants.get(channelId);
    if (known) {
      return known;
    }
    const rows: Row[] = await this.database.asSystem((tx) =>
      tx.query(`SELECT tenant_id FROM relay.channels WHERE id = $1`, [channelId]),
    );
    if (!rows[0]) {
      return undefined;
    }
    if (this.tenants.size >= 10_000) {
      this.tenants.clear();
    }
    this.tenants.set(channelId, String(rows[0].tenant_id));
    return String(rows[0].tenant_id);
  }

  route(tenantId: string, channelId: string): Promise<ChannelRoute | undefined> {
    return this.routes.get(`${tenantId}:channel:${channelId}`, () =>
      this.database.inTenant(tenantId, async (tx) => {
        const rows: Row[] = await tx.query(
          `SELECT c.id, c.name, c.kind, c.config, c.secrets_ciphertext, sub.id AS subscription_id,
                  a.id AS agent_id, a.name AS agent_name, a.agent_card_url, a.agent_card,
                  a.a2a_credential_ciphertext, a.a2a_credential_header, a.a2a_timeout_ms, ten.slug
             FROM relay.channels c
             LEFT JOIN LATERAL (
                  SELECT s.id, s.target_id FROM relay.subscriptions s
                   WHERE s.tenant_id = c.tenant_id AND s.kind = 'CHANNEL_TO_AGENT'
                     AND s.source_id = c.id
                   ORDER BY s.created_at, s.id LIMIT 1) sub ON true
             LEFT JOIN relay.agents a ON a.tenant_id = c.tenant_id AND a.id = sub.target_id
                  AND a.status <> 'DELETED'
             LEFT JOIN relay.tenants ten ON ten.tenant_id = c.tenant_id
            WHERE c.tenant_id = $1 AND c.id = $2`,
          [tenantId, channelId],
        );
        return rows[0] ? toRoute(tenantId, rows[0]) : undefined;
      }),
    );
  }

  /** D37: the channel's secrets, opened for this event (never logged, never answered). */
  secretsOf(channel: ChannelEntry): ChannelSecrets {
    return channel.secretsSealed
      ? (JSON.parse(this.credentials.open(channel.secretsSealed)) as ChannelSecrets)
      : {};
  }
}

function toRoute(tenantId: string, row: Row): ChannelRoute {
  const subscriptionId = str(row.subscription_id);
  const agentId = str(row.agent_id);
  const card = row.agent_card as AgentCardJson | null;
  return {
    tenantId,
    tenantSlug: str(row.slug),
    channel: {
      id: String(row.id),
      name: String(row.name),
      kind: String(row.kind),
      settings: (row.config as ChannelSettings | null) ?? {},
      ...(str(row.secrets_ciphertext) ? { secretsSealed: String(row.secrets_ciphertext) } : {}),
    },
    ...(subscriptionId ? { subscription: { id: subscriptionId } } : {}),
    ...(agentId
      ? {
          agent: {
            id: agentId,
            name: String(row.agent_name),
            agentCardUrl: str(row.agent_card_url),
            ...(card ? { card } : {}),
            credentialSealed: str(row.a2a_credential_ciphertext),
            credentialHeader: str(row.a2a_credential_header),
            timeoutMs: Number(row.a2a_timeout_ms),
          },
        }
      : {}),
  };
}
