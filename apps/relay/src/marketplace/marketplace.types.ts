import { SearchCursor, SearchFilters } from '../discovery/discovery.types';

/** D59: what a listing exposes and how it may be installed (marketplace.md MK1–MK8). */
export const LISTING_KINDS = ['AGENT', 'MCP_SERVER'] as const;
export type ListingKind = (typeof LISTING_KINDS)[number];

export const TERMS_TYPES = ['FREE', 'PER_CALL', 'LICENSED'] as const;
export type TermsType = (typeof TERMS_TYPES)[number];

export type ListingStatus = 'PUBLISHED' | 'UNPUBLISHED';

export const INSTALLATION_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;
export type InstallationStatus = (typeof INSTALLATION_STATUSES)[number] | 'REMOVED';

/** The audit's names for the marketplace's resources (D42: ADMIN_CHANGE targets). */
export const LISTING_KIND = 'MARKETPLACE_LISTING';
export const INSTALLATION_KIND = 'MARKETPLACE_INSTALLATION';

export interface ListingTerms {
  type: TermsType;
  priceUsd?: number;
  /** payments.md PY20: PER_CALL charged with x402, to this EVM address on this CAIP-2 network. */
  payTo?: string;
  network?: string;
  licenceValiditySeconds?: number;
}

/** A publisher's policy its callers accept (MK6): the policy group, named as it was published. */
export interface RequiredPolicy {
  id: string;
  name: string;
}

export interface StoredListing {
  id: string;
  tenantId: string;
  /** The publishing tenant's slug: the one fact of the publisher every installer sees (MK9). */
  publisherSlug?: string;
  kind: ListingKind;
  targetId: string;
  name: string;
  summary: string;
  categories: string[];
  terms: ListingTerms;
  requiredPolicies: RequiredPolicy[];
  /** The agent card or `server.json` as installers see it: no upstream URL in it (MK4). */
  document: Record<string, unknown>;
  status: ListingStatus;
  createdAt: string;
  updatedAt: string;
}

export interface NewListing {
  id: string;
  tenantId: string;
  kind: ListingKind;
  targetId: string;
  name: string;
  summary: string;
  categories: string[];
  terms: ListingTerms;
  requiredPolicies: RequiredPolicy[];
  document: Record<string, unknown>;
}

export type ListingChange = Partial<
  Pick<NewListing, 'name' | 'summary' | 'categories' | 'terms' | 'requiredPolicies' | 'document'>
>;

/** One repository question for browsing and searching, answered by discovery's search (MK29). */
export interface ListingSearch {
  /** The asking tenant: it sees every PUBLISHED listing and its own unpublished ones. */
  tenantId: string;
  kind?: ListingKind;
  /** Only the asking tenant's own listings. */
  mine?: boolean;
  /** `q`, the facets (`skill`, `tag`, `capability`, modes, `tool`) and `category` (DS14). */
  filters: SearchFilters;
  limit: number;
  after?: SearchCursor;
}

export interface StoredInstallation {
  id: string;
  /** The installing tenant. */
  tenantId: string;
  installerSlug?: string;
  publisherTenantId: string;
  publisherSlug?: string;
  listingId: string;
  listingName?: string;
  kind: ListingKind;
  /** The publisher's agent or MCP server: never answered to the installer (MK4). */
  targetId: string;
  /** The registry entry made in the installing tenant. */
  entryId: string;
  /** The listing was LICENSED when installed: calls need a valid licence (MK23). */
  licensed: boolean;
  status: InstallationStatus;
  createdAt: string;
  updatedAt: string;
}
