import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database } from '@agp/database';
import { HttpProblem } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { PUBLIC_BASE_URL } from '../config/relay-config.module';
import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { LicencesRepository } from '../licences/licences.repository';
import { StoredLicence } from '../licences/licence.types';
import {
  ChangeInstallationDto,
  InstallListingDto,
  ListInstallationsQueryDto,
} from './dto/installation.dto';
import { installationOf, ownInstallationOf } from './installation-access';
import { InstallationLicences, LicenceView, licenceView } from './installation-licences';
import { InstallationsRepository } from './installations.repository';
import { entityOf, mustMayWrite, ListingsService } from './listings.service';
import {
  MarketplaceErrorCode,
  MarketplaceException,
  cursorPage,
  decodeOffsetCursor,
} from './marketplace.exception';
import { InstalledEntries } from './installed-entries';
import { servedServerJson } from './listing-documents';
import { ListingsRepository } from './listings.repository';
import { recordBothSides } from './marketplace-events';
import { INSTALLATION_KIND, StoredInstallation, StoredListing } from './marketplace.types';

/** What each side is answered about an installation (MK11): its own facts and the other tenant's name. */
export interface InstallationResponse {
  id: string;
  listingId: string;
  listingName?: string;
  kind: string;
  status: string;
  /** The installer's view: its entry (an agent, or an MCP server: MK31) and the publisher's tenant. */
  agentId?: string;
  mcpServerId?: string;
  publisher?: { tenantId: string; slug?: string };
  /** The publisher's view: the installing tenant only. */
  installer?: { tenantId: string; slug?: string };
  licence?: LicenceView;
  createdAt: string;
  updatedAt: string;
}

/** D47, D59: installing, suspending, removing (MK11–MK19); licences are InstallationLicences'. */
@Injectable()
export class InstallationsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly installations: InstallationsRepository,
    private readonly listings: ListingsService,
    private readonly entries: InstalledEntries,
    private readonly licensing: InstallationLicences,
    private readonly licenceRows: LicencesRepository,
    private readonly listingRows: ListingsRepository,
    @Inject(PUBLIC_BASE_URL) private readonly baseUrl: string,
  ) {}

  /** Cross-tenant by nature: one system-scope transaction naming both tenants explicitly (MK7). */
  async install(
    ctx: RequestContext,
    listingId: string,
    dto: InstallListingDto,
  ): Promise<{ installationId: string; agentId?: string; mcpServerId?: string; licence?: string }> {
    return this.database.asSystem(async (tx) => {
      const listing = await this.listings.visible(tx, ctx.tenantId, listingId);
      mustMayWrite(ctx, listing.kind);
      this.mustInstallable(ctx, listing, dto);
      if (await this.installations.active(tx, ctx.tenantId, listingId)) {
        throw new MarketplaceException(
          MarketplaceErrorCode.AlreadyInstalled,
          `listing ${listingId} is installed in this tenant already`,
        );
      }
      await this.entries.mustTargetStand(tx, listing);
      const installationId = randomUUID();
      const entry = await this.entries.create(tx, ctx, listing, installationId);
      const installation = await this.installations.insert(tx, {
        id: installationId,
        tenantId: ctx.tenantId,
        publisherTenantId: listing.tenantId,
        listingId,
        kind: listing.kind,
        targetId: listing.targetId,
        entryId: entry.id,
        licensed: listing.terms.type === 'LICENSED',
      });
      const licence = await this.licensing.issueIfLicensed(tx, listing, installation);
      await recordBothSides(
        this.outbox,
        tx,
        ctx,
        { tenantId: listing.tenantId },
        { slug: installation.installerSlug },
        'CREATED',
        {
          target: { kind: INSTALLATION_KIND, id: installationId, name: listing.name },
          after: {
            listingId,
            status: installation.status,
            ...(licence ? { licenceId: licence.id } : {}),
          },
        },
      );
      return {
        installationId,
        ...(listing.kind === 'AGENT' ? { agentId: entry.id } : { mcpServerId: entry.id }),
        ...(licence ? { licence: licence.token } : {}),
      };
    });
  }

  async list(
    ctx: RequestContext,
    query: ListInstallationsQueryDto,
  ): Promise<{ items: InstallationResponse[]; nextCursor?: string }> {
    const offset = decodeOffsetCursor(query.cursor);
    const rows = await this.database.asSystem((tx) =>
      this.installations.list(tx, ctx.tenantId, query.side, query.listingId, offset, query.limit),
    );
    return cursorPage(rows, offset, query.limit, (row) => viewOf(row, ctx.tenantId));
  }

  /**
   * MK35: the MCP registry's `server.json` of an installed MCP listing, as the installer reaches
   * it: the listing's document with the installer's relay path as its one remote (MK3, MK4).
   */
  async serverJson(ctx: RequestContext, id: string): Promise<Record<string, unknown>> {
    return this.database.asSystem(async (tx) => {
      const installation = await ownInstallationOf(this.installations, tx, ctx.tenantId, id);
      if (installation.kind !== 'MCP_SERVER') {
        throw new MarketplaceException(
          MarketplaceErrorCode.NoServerJson,
          `installation ${id} is of an agent: its card is at /relay/a2a/${installation.entryId}/.well-known/agent-card.json`,
        );
      }
      const listing = await this.listingRows.find(tx, installation.listingId);
      return servedServerJson(
        listing!.document,
        `${this.baseUrl}/relay/mcp/${installation.entryId}`,
      );
    });
  }

  async get(ctx: RequestContext, id: string): Promise<InstallationResponse> {
    return this.database.asSystem(async (tx) => {
      const installation = await installationOf(this.installations, tx, ctx.tenantId, id);
      const [licence] = await this.licenceRows.ofInstallation(tx, id);
      return viewOf(installation, ctx.tenantId, licence);
    });
  }

  /** D59: the publisher suspends or resumes; the installer's calls stop or go on (MK16). */
  async changeStatus(
    ctx: RequestContext,
    id: string,
    dto: ChangeInstallationDto,
  ): Promise<InstallationResponse> {
    return this.database.asSystem(async (tx) => {
      const current = await installationOf(this.installations, tx, ctx.tenantId, id, true);
      if (current.publisherTenantId !== ctx.tenantId) {
        throw HttpProblem.forbidden(`${entityOf(current.kind)}:WRITE of the listing's publisher`);
      }
      mustMayWrite(ctx, current.kind);
      if (current.status !== dto.status) {
        await this.installations.setStatus(tx, id, dto.status);
        await recordBothSides(
          this.outbox,
          tx,
          ctx,
          { tenantId: current.tenantId },
          { slug: current.publisherSlug },
          'UPDATED',
          {
            target: { kind: INSTALLATION_KIND, id, name: current.listingName },
            before: { status: current.status },
            after: { status: dto.status },
          },
        );
      }
      return viewOf({ ...current, status: dto.status }, ctx.tenantId);
    });
  }

  /** The installer removes: the entry is deleted, the licences revoked (MK14). */
  async remove(ctx: RequestContext, id: string): Promise<void> {
    await this.database.asSystem(async (tx) => {
      const current = await ownInstallationOf(this.installations, tx, ctx.tenantId, id, true);
      mustMayWrite(ctx, current.kind);
      await this.installations.setStatus(tx, id, 'REMOVED');
      await this.entries.remove(tx, ctx, current);
      await this.licenceRows.revokeAllOf(tx, id);
      const name = current.listingName ?? current.listingId;
      await recordBothSides(
        this.outbox,
        tx,
        ctx,
        { tenantId: current.publisherTenantId },
        { slug: current.installerSlug },
        'DELETED',
        { target: { kind: INSTALLATION_KIND, id, name }, before: { status: current.status } },
      );
    });
  }

  private mustInstallable(
    ctx: RequestContext,
    listing: StoredListing,
    dto: InstallListingDto,
  ): void {
    if (listing.status !== 'PUBLISHED') {
      throw new MarketplaceException(
        MarketplaceErrorCode.ListingUnpublished,
        `listing ${listing.id} is unpublished: it takes no new installs`,
      );
    }
    if (listing.tenantId === ctx.tenantId) {
      throw new MarketplaceException(
        MarketplaceErrorCode.OwnListing,
        'a tenant does not install its own listing: call the agent itself',
      );
    }
    const accepted = new Set(dto.acceptedPolicies ?? []);
    const missing = listing.requiredPolicies.filter((p) => !accepted.has(p.id));
    if (missing.length > 0) {
      throw new MarketplaceException(
        MarketplaceErrorCode.PoliciesNotAccepted,
        'invalid request: acceptedPolicies',
        missing.map((p) => ({
          field: 'acceptedPolicies',
          message: `the listing requires policy ${p.id} (${p.name}) to be accepted`,
        })),
      );
    }
  }
}

/** MK11: each side sees its own facts and the other tenant's id and slug, nothing more. */
function viewOf(
  row: StoredInstallation,
  tenantId: string,
  licence?: StoredLicence,
): InstallationResponse {
  const isInstaller = row.tenantId === tenantId;
  return {
    id: row.id,
    listingId: row.listingId,
    ...(row.listingName ? { listingName: row.listingName } : {}),
    kind: row.kind,
    status: row.status,
    ...(isInstaller
      ? {
          ...(row.kind === 'AGENT' ? { agentId: row.entryId } : { mcpServerId: row.entryId }),
          publisher: { tenantId: row.publisherTenantId, slug: row.publisherSlug },
        }
      : { installer: { tenantId: row.tenantId, slug: row.installerSlug } }),
    ...(licence ? { licence: licenceView(licence, isInstaller) } : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
