import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { PermissionEntity } from '@agp/contracts';
import { RequestContext, allows } from '@agp/auth';
import { Database, Tx, isUniqueViolation } from '@agp/database';
import { HttpProblem } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { PUBLIC_BASE_URL } from '../config/relay-config.module';
import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { decodeCursor, encodeCursor } from '../discovery/search-query';
import { AgentCards } from '../traffic/a2a/agent-cards.service';
import { A2aUpstreamFailure } from '../traffic/a2a/a2a-upstream';
import { ChangeListingDto } from './dto/change-listing.dto';
import { ListListingsQueryDto } from './dto/list-listings-query.dto';
import { PublishListingDto, chargeFaults } from './dto/publish-listing.dto';
import { listedCard, listedServerJson } from './listing-documents';
import { ListingsRepository } from './listings.repository';
import { MarketplaceErrorCode, MarketplaceException } from './marketplace.exception';
import { MarketplaceTargetsRepository } from './marketplace-targets.repository';
import { LISTING_KIND, ListingKind, ListingTerms, StoredListing } from './marketplace.types';

/** What a tenant is answered about a listing; the target is named only to its publisher (MK4). */
export interface ListingResponse {
  id: string;
  kind: ListingKind;
  name: string;
  summary: string;
  categories: string[];
  terms: ListingTerms;
  requiredPolicies: Array<{ id: string; name: string }>;
  /** The agent card, or the MCP registry's `server.json`. */
  card?: Record<string, unknown>;
  serverJson?: Record<string, unknown>;
  status: string;
  publisher: { tenantId: string; slug?: string };
  targetId?: string;
  createdAt: string;
  updatedAt: string;
}

/** D47, D59: publish, browse, change and unpublish listings (marketplace.md MK1–MK10). */
@Injectable()
export class ListingsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    @Inject(PUBLIC_BASE_URL) private readonly baseUrl: string,
    private readonly listings: ListingsRepository,
    private readonly targets: MarketplaceTargetsRepository,
    private readonly cards: AgentCards,
  ) {}

  async publish(ctx: RequestContext, dto: PublishListingDto): Promise<ListingResponse> {
    mustMayWrite(ctx, dto.kind);
    mustBeChargeable(dto.kind, dto.terms);
    const id = randomUUID();
    const document = await this.documentOf(ctx, id, dto.kind, dto.targetId, dto.serverJson);
    try {
      const stored = await this.database.inTenant(ctx.tenantId, async (tx) => {
        const requiredPolicies = await this.policiesOf(tx, ctx.tenantId, dto.requiredPolicies);
        const listing = await this.listings.insert(tx, {
          id,
          tenantId: ctx.tenantId,
          kind: dto.kind,
          targetId: dto.targetId,
          name: dto.name,
          summary: dto.summary,
          categories: dto.categories ?? [],
          terms: termsOf(dto.terms),
          requiredPolicies,
          document,
        });
        await recordAdminChange(this.outbox, tx, ctx, 'CREATED', {
          target: { kind: LISTING_KIND, id, name: listing.name },
          after: auditedOf(listing),
        });
        return listing;
      });
      return toListingResponse(stored, ctx.tenantId);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new MarketplaceException(
          MarketplaceErrorCode.TargetAlreadyListed,
          `${dto.kind === 'AGENT' ? 'agent' : 'MCP server'} ${dto.targetId} is listed already; change that listing`,
        );
      }
      throw error;
    }
  }

  /** MK29: the one search of listings, discovery's; a tenant sees every published one and its own. */
  async list(
    ctx: RequestContext,
    query: ListListingsQueryDto,
  ): Promise<{ items: ListingResponse[]; nextCursor?: string }> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (query.cursor !== undefined && !after) {
      throw new MarketplaceException(
        MarketplaceErrorCode.InvalidCursor,
        'cursor is not one this API gave out',
      );
    }
    const { cursor: _cursor, limit, kind, mine, ...filters } = query;
    const { rows, next } = await this.database.asSystem((tx) =>
      this.listings.search(tx, {
        tenantId: ctx.tenantId,
        ...(kind ? { kind } : {}),
        ...(mine ? { mine: true } : {}),
        filters,
        limit,
        ...(after ? { after } : {}),
      }),
    );
    return {
      items: rows.map((row) => toListingResponse(row, ctx.tenantId)),
      ...(next ? { nextCursor: encodeCursor(next) } : {}),
    };
  }

  async get(ctx: RequestContext, id: string): Promise<ListingResponse> {
    const listing = await this.database.asSystem((tx) => this.visible(tx, ctx.tenantId, id));
    return toListingResponse(listing, ctx.tenantId);
  }

  async change(ctx: RequestContext, id: string, dto: ChangeListingDto): Promise<ListingResponse> {
    const known = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.own(tx, ctx.tenantId, id),
    );
    mustMayWrite(ctx, known.kind);
    if (dto.terms !== undefined) {
      mustBeChargeable(known.kind, dto.terms);
    }
    // The card is read again, so a change publishes what the agent now says of itself.
    const document =
      known.kind === 'AGENT' || dto.serverJson !== undefined
        ? await this.documentOf(ctx, id, known.kind, known.targetId, dto.serverJson)
        : known.document;
    const stored = await this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = await this.own(tx, ctx.tenantId, id, true);
      const requiredPolicies =
        dto.requiredPolicies !== undefined
          ? await this.policiesOf(tx, ctx.tenantId, dto.requiredPolicies)
          : current.requiredPolicies;
      const next = await this.listings.update(tx, current, {
        ...(dto.name !== undefined ? { name: dto.name } : {}),
        ...(dto.summary !== undefined ? { summary: dto.summary } : {}),
        ...(dto.categories !== undefined ? { categories: dto.categories } : {}),
        ...(dto.terms !== undefined ? { terms: termsOf(dto.terms) } : {}),
        requiredPolicies,
        document,
      });
      await recordAdminChange(this.outbox, tx, ctx, 'UPDATED', {
        target: { kind: LISTING_KIND, id, name: next.name },
        before: auditedOf(current),
        after: auditedOf(next),
      });
      return next;
    });
    return toListingResponse(stored, ctx.tenantId);
  }

  /** D59: unpublishing stops new installs; installations go on (MK8). */
  async unpublish(ctx: RequestContext, id: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = await this.own(tx, ctx.tenantId, id, true);
      mustMayWrite(ctx, current.kind);
      if (current.status === 'UNPUBLISHED') {
        return;
      }
      await this.listings.unpublish(tx, id);
      await recordAdminChange(this.outbox, tx, ctx, 'DELETED', {
        target: { kind: LISTING_KIND, id, name: current.name },
        before: auditedOf(current),
      });
    });
  }

  /** A listing the tenant may see: published, or its own (MK9: others' are 404 alike). */
  async visible(tx: Tx, tenantId: string, id: string): Promise<StoredListing> {
    const listing = await this.listings.find(tx, id);
    if (!listing || (listing.status !== 'PUBLISHED' && listing.tenantId !== tenantId)) {
      throw new MarketplaceException(
        MarketplaceErrorCode.ListingNotFound,
        `listing ${id} not found`,
      );
    }
    return listing;
  }

  private async own(tx: Tx, tenantId: string, id: string, lock = false): Promise<StoredListing> {
    const listing = await this.listings.find(tx, id, lock);
    if (!listing || listing.tenantId !== tenantId) {
      throw new MarketplaceException(
        MarketplaceErrorCode.ListingNotFound,
        `listing ${id} not found`,
      );
    }
    return listing;
  }

  private async policiesOf(tx: Tx, tenantId: string, ids: string[] | undefined) {
    const wanted = [...new Set(ids ?? [])];
    const found = await this.targets.policyGroups(tx, tenantId, wanted);
    const missing = wanted.filter((id) => !found.some((p) => p.id === id));
    if (missing.length > 0) {
      throw HttpProblem.validation(
        missing.map((id) => ({ field: 'requiredPolicies', message: `no policy group ${id}` })),
      );
    }
    return found;
  }

  /** MK2, MK40: only a PUBLIC agent or MCP server of the tenant is published; MK4: no URL. */
  private async documentOf(
    ctx: RequestContext,
    listingId: string,
    kind: ListingKind,
    targetId: string,
    serverJson: Record<string, unknown> | undefined,
  ): Promise<Record<string, unknown>> {
    const tokenUrl = `${this.baseUrl}/tenant-auth/v1/oauth/token`;
    const listingUrl = `${this.baseUrl}/relay/v1/marketplace/listings/${listingId}`;
    if (kind === 'MCP_SERVER') {
      const server = await this.database.inTenant(ctx.tenantId, (tx) =>
        this.targets.mcpServer(tx, ctx.tenantId, targetId),
      );
      if (!server || server.installationId) {
        throw notFound('MCP server', targetId);
      }
      if (server.visibility !== 'PUBLIC') {
        // MK40 (D47: PUBLIC is "the marketplace too"), as for agents (MK2).
        throw new MarketplaceException(
          MarketplaceErrorCode.TargetNotPublic,
          `MCP server ${targetId} is ${server.visibility}: only a PUBLIC MCP server is published (set its visibility first)`,
        );
      }
      if (server.installedMembers.length > 0) {
        // MK37: an installed member may be another tenant's virtual server: a loop across tenants.
        throw HttpProblem.validation([
          {
            field: 'targetId',
            message: `virtual server ${server.name} has installed members (${server.installedMembers.join(', ')}); only a virtual server of the tenant's own members is published`,
          },
        ]);
      }
      return listedServerJson(serverJson, server);
    }
    const agent = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.targets.agent(tx, ctx.tenantId, targetId),
    );
    if (!agent || agent.installationId) {
      throw notFound('agent', targetId);
    }
    if (agent.visibility !== 'PUBLIC') {
      throw new MarketplaceException(
        MarketplaceErrorCode.TargetNotPublic,
        `agent ${targetId} is ${agent.visibility}: only a PUBLIC agent is published (set its visibility first)`,
      );
    }
    try {
      const card = await this.cards.cardOf(ctx.tenantId, ctx.correlationId, {
        id: agent.id,
        name: agent.name,
        ...(agent.card ? { card: agent.card } : {}),
      });
      return listedCard(card, listingUrl, tokenUrl);
    } catch (error) {
      if (error instanceof A2aUpstreamFailure) {
        throw new MarketplaceException(MarketplaceErrorCode.NoAgentCard, error.message);
      }
      throw error;
    }
  }
}

function notFound(what: string, id: string): MarketplaceException {
  return new MarketplaceException(
    MarketplaceErrorCode.TargetNotFound,
    `invalid request: targetId`,
    [{ field: 'targetId', message: `no ${what} ${id} in this tenant` }],
  );
}

/** MK13: REGISTRY for agents, MCP_REGISTRY for MCP servers, as their registries are. */
export function entityOf(kind: ListingKind): PermissionEntity {
  return kind === 'AGENT' ? 'REGISTRY' : 'MCP_REGISTRY';
}

export function mustMayWrite(ctx: RequestContext, kind: ListingKind): void {
  const entity = entityOf(kind);
  if (!allows(ctx.principal.permissions, entity, 'WRITE')) {
    throw HttpProblem.forbidden(`${entity}:WRITE`);
  }
}

function mustBeChargeable(kind: ListingKind, terms: ListingTerms): void {
  const faults = chargeFaults(kind, terms);
  if (faults.length > 0) {
    throw HttpProblem.validation(faults);
  }
}

function termsOf(dto: ListingTerms): ListingTerms {
  return {
    type: dto.type,
    ...(dto.priceUsd !== undefined ? { priceUsd: dto.priceUsd } : {}),
    ...(dto.payTo !== undefined ? { payTo: dto.payTo } : {}),
    ...(dto.network !== undefined ? { network: dto.network } : {}),
    ...(dto.licenceValiditySeconds !== undefined
      ? { licenceValiditySeconds: dto.licenceValiditySeconds }
      : {}),
  };
}

/** D42: what the trail records of a listing (its document by name only: it can be large). */
function auditedOf(listing: StoredListing): Record<string, unknown> {
  return {
    kind: listing.kind,
    targetId: listing.targetId,
    name: listing.name,
    summary: listing.summary,
    categories: listing.categories,
    terms: listing.terms,
    requiredPolicies: listing.requiredPolicies.map((p) => p.id),
    status: listing.status,
  };
}

export function toListingResponse(listing: StoredListing, askingTenantId: string): ListingResponse {
  const isOwn = listing.tenantId === askingTenantId;
  return {
    id: listing.id,
    kind: listing.kind,
    name: listing.name,
    summary: listing.summary,
    categories: listing.categories,
    terms: listing.terms,
    requiredPolicies: listing.requiredPolicies,
    ...(listing.kind === 'AGENT' ? { card: listing.document } : { serverJson: listing.document }),
    status: listing.status,
    publisher: {
      tenantId: listing.tenantId,
      ...(listing.publisherSlug ? { slug: listing.publisherSlug } : {}),
    },
    ...(isOwn ? { targetId: listing.targetId } : {}),
    createdAt: listing.createdAt,
    updatedAt: listing.updatedAt,
  };
}
