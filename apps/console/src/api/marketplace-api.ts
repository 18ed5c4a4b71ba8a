import type {
  LicenceView,
  ListingResponse,
  ListingTerms,
  RelayOperations,
} from './contracts/relay';
import { api, query } from './client';

/** The relay's answer to an operation, as its contract declares it (F27). */
type Answer<Operation extends keyof RelayOperations> = RelayOperations[Operation];

/** Discovery's filters (discovery.md DS5): each an exact facet; `q` ranks. */
export interface DiscoveryQuery {
  q?: string;
  skill?: string;
  tag?: string;
  capability?: string;
  inputMode?: string;
  outputMode?: string;
  tool?: string;
}

export interface ListingQuery extends DiscoveryQuery {
  kind?: ListingResponse['kind'];
  category?: string;
  mine?: boolean;
}

export interface NewListing {
  kind: ListingResponse['kind'];
  targetId: string;
  name: string;
  summary: string;
  categories: string[];
  terms: ListingTerms;
}

/** Issue 40: discovery (DS1–DS18) and the marketplace (MK1–MK40), read and changed as the user. */
export const marketplaceApi = {
  agents: (filters: DiscoveryQuery) =>
    api<Answer<'DiscoveryController_agents'>>(`/relay/v1/discovery/agents${query({ ...filters })}`),
  mcpServers: (filters: DiscoveryQuery) =>
    api<Answer<'DiscoveryController_mcpServers'>>(
      `/relay/v1/discovery/mcp-servers${query({ ...filters })}`,
    ),
  listings: (filters: ListingQuery) =>
    api<Answer<'MarketplaceController_list'>>(
      `/relay/v1/marketplace/listings${query({ ...filters, mine: filters.mine ? 'true' : undefined })}`,
    ),
  publish: (listing: NewListing) =>
    api<Answer<'MarketplaceController_publish'>>('/relay/v1/marketplace/listings', {
      method: 'POST',
      body: JSON.stringify(listing),
    }),
  unpublish: (id: string) =>
    api<void>(`/relay/v1/marketplace/listings/${id}`, { method: 'DELETE' }),
  install: (listing: ListingResponse) =>
    api<Answer<'MarketplaceController_install'>>(
      `/relay/v1/marketplace/listings/${listing.id}/installations`,
      {
        method: 'POST',
        body: JSON.stringify({ acceptedPolicies: listing.requiredPolicies.map((p) => p.id) }),
      },
    ),
  installations: (side: 'INSTALLED' | 'PUBLISHED') =>
    api<Answer<'MarketplaceController_installs'>>(
      `/relay/v1/marketplace/installations${query({ side, limit: 100 })}`,
    ),
  installation: (id: string) =>
    api<Answer<'MarketplaceController_installation'>>(`/relay/v1/marketplace/installations/${id}`),
  setStatus: (id: string, status: 'ACTIVE' | 'SUSPENDED') =>
    api<Answer<'MarketplaceController_changeInstallation'>>(
      `/relay/v1/marketplace/installations/${id}`,
      {
        method: 'PATCH',
        body: JSON.stringify({ status }),
      },
    ),
  remove: (id: string) =>
    api<void>(`/relay/v1/marketplace/installations/${id}`, { method: 'DELETE' }),
  renew: (id: string) =>
    api<Answer<'MarketplaceController_renew'>>(
      `/relay/v1/marketplace/installations/${id}/licences`,
      { method: 'POST' },
    ),
};

/** A licence as a person reads its state: none, valid until, expired, revoked (MK23). */
export function licenceState(licence: LicenceView | undefined, now = Date.now()): string {
  if (!licence) {
    return 'none';
  }
  if (licence.revokedAt) {
    return `revoked ${licence.revokedAt.slice(0, 10)}`;
  }
  return Date.parse(licence.expiresAt) <= now
    ? `expired ${licence.expiresAt.slice(0, 10)}`
    : `valid until ${licence.expiresAt.slice(0, 10)}`;
}
