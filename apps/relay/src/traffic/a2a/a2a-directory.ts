import { Inject, Injectable } from '@nestjs/common';
import { Database, Row, queryNamed, str } from '@agp/database';

import { RELAY_DATABASE } from '../../database/tokens';
import { ExpiringCache } from '../pipeline/expiring-cache';
import { InstalledTarget, TrafficDirectory, installedOf } from '../pipeline/traffic-directory';
import { ListingTerms } from '../../marketplace/marketplace.types';
import { AgentCardJson } from './agent-card';

/** The agent an A2A call goes to, with what the relay needs to reach it (D37, D38). */
export interface A2aTarget {
  id: string;
  name: string;
  agentCardUrl?: string;
  /** The card as last fetched from `agentCardUrl`, undefined until the first fetch. */
  card?: AgentCardJson;
  credentialSealed?: string;
  credentialHeader?: string;
  timeoutMs: number;
  /** MK16: an entry a marketplace install made; its upstream is the publisher's agent. */
  installation?: InstalledTarget;
}

export type { InstalledTarget };

export interface A2aRoute {
  tenantSlug?: string;
  /** The calling agent, or the person (D43) with their e-mail for POLICY.md's `user`. */
  caller?: { name: string; riskTier?: string; email?: string };
  target: A2aTarget;
  /** The AGENT_TO_AGENT (or a person's USER_TO_AGENT, D43) subscription, absent when none. */
  subscription?: { id: string };
  /** payments.md PY20: on the publisher's side, the installed listing's x402 price per call. */
  perCall?: PerCallPrice;
}

/** A PER_CALL listing's price as x402 asks for it (PY20). */
export interface PerCallPrice {
  priceUsd: number;
  payTo: string;
  network: string;
  listingId: string;
}

/** The per-call read of the A2A path, cached like every route (T2). */
@Injectable()
export class A2aDirectory {
  private readonly routes: ExpiringCache<A2aRoute | undefined>;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    directory: TrafficDirectory,
  ) {
    this.routes = directory.cacheFor<A2aRoute | undefined>();
  }

  /** D43: a person on `/relay/human/{agentId}` is the caller, under USER_TO_AGENT. */
  route(
    tenantId: string,
    callerId: string,
    targetId: string,
    party: A2aParty = 'AGENT',
  ): Promise<A2aRoute | undefined> {
    return this.routes.get(`${tenantId}:a2a:${party}:${callerId}:${targetId}`, () =>
      this.database.inTenant(tenantId, async (tx) => {
        // One fixed text per party, so a named statement each (F53).
        const rows: Row[] = await queryNamed(
          tx,
          `SELECT t.id, t.name, t.agent_card_url, t.agent_card, t.a2a_credential_ciphertext,
                  t.a2a_credential_header, t.a2a_timeout_ms, ${CALLER_COLUMNS[party]},
                  ${SUBSCRIPTION_COLUMN[party]} AS subscription_id, ten.slug,
                  mi.id AS installation_id, mi.tenant_id AS installer_tenant_id, mi.publisher_tenant_id, mi.target_id AS installed_target_id,
                  mi.listing_id AS installed_listing_id, mi.status AS installation_status, mi.licensed
             FROM relay.agents t
             ${CALLER_JOINS[party]}
             LEFT JOIN relay.marketplace_installations mi ON mi.id = t.installation_id
                  AND mi.tenant_id = t.tenant_id
             LEFT JOIN relay.subscriptions sub ON sub.tenant_id = t.tenant_id
                  AND sub.kind = $4 AND sub.source_id = $2 AND sub.target_id = t.id
             LEFT JOIN relay.tenants ten ON ten.tenant_id = t.tenant_id
            WHERE t.tenant_id = $1 AND t.id = $3 AND t.status <> 'DELETED'`,
          [tenantId, callerId, targetId, SUBSCRIPTION_KIND[party]],
        );
        return rows[0] ? toRoute(rows[0]) : undefined;
      }),
    );
  }
}

/**
 * Who calls over A2A: an agent (D38), a person on the human path (D43), or, in the publisher's
 * tenant, a marketplace installation forwarding its installer's call (MK16).
 */
export type A2aParty = 'AGENT' | 'USER' | 'INSTALLATION';

const SUBSCRIPTION_KIND: Readonly<Record<A2aParty, string>> = {
  AGENT: 'AGENT_TO_AGENT',
  USER: 'USER_TO_AGENT',
  INSTALLATION: 'MARKETPLACE_INSTALLATION',
};

/** MK17: an ACTIVE installation of this very agent is the publisher side's subscription. */
const SUBSCRIPTION_COLUMN: Readonly<Record<A2aParty, string>> = {
  AGENT: 'sub.id',
  USER: 'sub.id',
  INSTALLATION: 'c.id',
};

const CALLER_COLUMNS: Readonly<Record<A2aParty, string>> = {
  AGENT: `c.name AS caller_name, c.risk_tier AS caller_risk_tier, NULL AS caller_email,
         NULL AS listing_terms, NULL AS listing_id`,
  USER: `coalesce(u.display_name, u.email) AS caller_name, NULL AS caller_risk_tier,
         u.email AS caller_email, NULL AS listing_terms, NULL AS listing_id`,
  INSTALLATION: `'marketplace installation of ' || coalesce(c.installer_slug, c.tenant_id::text)
         AS caller_name, NULL AS caller_risk_tier, NULL AS caller_email,
         (SELECT l.terms FROM relay.marketplace_listings l
           WHERE l.id = c.listing_id AND l.tenant_id = t.tenant_id) AS listing_terms,
         c.listing_id AS listing_id`,
};

const CALLER_JOINS: Readonly<Record<A2aParty, string>> = {
  AGENT: 'LEFT JOIN relay.agents c ON c.tenant_id = t.tenant_id AND c.id = $2',
  USER: `LEFT JOIN relay.users u ON u.tenant_id = t.tenant_id AND u.id = $2
             AND u.status <> 'DELETED'`,
  INSTALLATION: `LEFT JOIN relay.marketplace_installations c ON c.id = $2
             AND c.publisher_tenant_id = t.tenant_id AND c.target_id = t.id AND c.status = 'ACTIVE'`,
};

function toRoute(row: Row): A2aRoute {
  const callerName = str(row.caller_name);
  const riskTier = str(row.caller_risk_tier);
  const email = str(row.caller_email);
  const subscriptionId = str(row.subscription_id);
  const card = row.agent_card as AgentCardJson | null;
  return {
    tenantSlug: str(row.slug),
    ...(callerName
      ? {
          caller: {
            name: callerName,
            ...(riskTier ? { riskTier } : {}),
            ...(email ? { email } : {}),
          },
        }
      : {}),
    target: {
      id: String(row.id),
      name: String(row.name),
      agentCardUrl: str(row.agent_card_url),
      ...(card ? { card } : {}),
      credentialSealed: str(row.a2a_credential_ciphertext),
      credentialHeader: str(row.a2a_credential_header),
      timeoutMs: Number(row.a2a_timeout_ms),
      ...(row.installation_id ? { installation: installedOf(row) } : {}),
    },
    ...(subscriptionId ? { subscription: { id: subscriptionId } } : {}),
    ...perCallOf(row),
  };
}

/** PY20: a PER_CALL listing with a price, a payee and a network is sold with x402. */
function perCallOf(row: Row): { perCall?: PerCallPrice } {
  const terms = row.listing_terms as ListingTerms | null;
  const listingId = str(row.listing_id);
  if (terms?.type !== 'PER_CALL' || !terms.priceUsd || !terms.payTo || !terms.network) {
    return {};
  }
  return listingId
    ? {
        perCall: {
          priceUsd: terms.priceUsd,
          payTo: terms.payTo,
          network: terms.network,
          listingId,
        },
      }
    : {};
}
