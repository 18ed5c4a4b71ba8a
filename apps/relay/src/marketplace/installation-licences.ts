import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database, Tx } from '@agp/database';
import { HttpProblem } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { StoredLicence } from '../licences/licence.types';
import { LicencesRepository } from '../licences/licences.repository';
import { Licences } from '../licences/licences.service';
import { installationOf, ownInstallationOf } from './installation-access';
import { InstallationsRepository } from './installations.repository';
import { ListingsService, entityOf, mustMayWrite } from './listings.service';
import { MarketplaceErrorCode, MarketplaceException } from './marketplace.exception';
import { recordBothSides } from './marketplace-events';
import { INSTALLATION_KIND, StoredInstallation, StoredListing } from './marketplace.types';

export interface LicenceView {
  id: string;
  entitlements: string[];
  issuedAt: string;
  expiresAt: string;
  revokedAt?: string;
  /** The signed licence, to the installer only. */
  token?: string;
}

/** MK20, MK25, MK26: an installation's licences: issued, renewed, revoked, listed. */
@Injectable()
export class InstallationLicences {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly installations: InstallationsRepository,
    private readonly listings: ListingsService,
    private readonly licences: Licences,
    private readonly licenceRows: LicencesRepository,
  ) {}

  /** MK25: the installer renews: a new licence of the listing's validity, the old ones stand. */
  async renewLicence(ctx: RequestContext, id: string): Promise<LicenceView> {
    return this.database.asSystem(async (tx) => {
      const current = await ownInstallationOf(this.installations, tx, ctx.tenantId, id, true);
      mustMayWrite(ctx, current.kind);
      if (current.status === 'SUSPENDED') {
        throw new MarketplaceException(
          MarketplaceErrorCode.InstallationSuspended,
          `installation ${id} is suspended by the listing's publisher`,
        );
      }
      const listing = await this.listings.visible(tx, current.publisherTenantId, current.listingId);
      const licence = await this.issueIfLicensed(tx, listing, current);
      if (!licence) {
        throw new MarketplaceException(
          MarketplaceErrorCode.NotLicensed,
          `listing ${current.listingId} is not LICENSED: its installations need no licence`,
        );
      }
      await this.recordLicence(tx, ctx, current, 'CREATED', licence);
      return licenceView(licence, true);
    });
  }

  /** MK26: the publisher revokes one licence; calls under it stop within T2. */
  async revokeLicence(ctx: RequestContext, licenceId: string): Promise<LicenceView> {
    return this.database.asSystem(async (tx) => {
      const licence = await this.licenceRows.find(tx, licenceId);
      if (
        !licence ||
        (licence.publisherTenantId !== ctx.tenantId && licence.tenantId !== ctx.tenantId)
      ) {
        throw new MarketplaceException(
          MarketplaceErrorCode.LicenceNotFound,
          `licence ${licenceId} not found`,
        );
      }
      const installation = await installationOf(
        this.installations,
        tx,
        ctx.tenantId,
        licence.installationId,
        true,
      );
      if (licence.publisherTenantId !== ctx.tenantId) {
        throw HttpProblem.forbidden(
          `${entityOf(installation.kind)}:WRITE of the listing's publisher`,
        );
      }
      mustMayWrite(ctx, installation.kind);
      if (!licence.revokedAt) {
        await this.licenceRows.revoke(tx, licenceId);
        await this.recordLicence(tx, ctx, installation, 'DELETED', licence);
      }
      return licenceView((await this.licenceRows.find(tx, licenceId))!, false);
    });
  }

  async licencesOf(ctx: RequestContext, id: string): Promise<{ items: LicenceView[] }> {
    return this.database.asSystem(async (tx) => {
      const installation = await installationOf(this.installations, tx, ctx.tenantId, id);
      const rows = await this.licenceRows.ofInstallation(tx, id);
      return { items: rows.map((l) => licenceView(l, installation.tenantId === ctx.tenantId)) };
    });
  }

  private async recordLicence(
    tx: Tx,
    ctx: RequestContext,
    installation: StoredInstallation,
    change: 'CREATED' | 'DELETED',
    licence: StoredLicence,
  ): Promise<void> {
    const isInstaller = installation.tenantId === ctx.tenantId;
    await recordBothSides(
      this.outbox,
      tx,
      ctx,
      { tenantId: isInstaller ? installation.publisherTenantId : installation.tenantId },
      { slug: isInstaller ? installation.installerSlug : installation.publisherSlug },
      change === 'CREATED' ? 'CREATED' : 'UPDATED',
      {
        target: { kind: INSTALLATION_KIND, id: installation.id, name: installation.listingName },
        ...(change === 'CREATED'
          ? { after: { licenceId: licence.id, licenceExpiresAt: licence.expiresAt } }
          : {
              before: { licenceId: licence.id, licenceRevoked: false },
              after: { licenceId: licence.id, licenceRevoked: true },
            }),
      },
    );
  }

  async issueIfLicensed(
    tx: Tx,
    listing: StoredListing,
    installation: StoredInstallation,
  ): Promise<StoredLicence | undefined> {
    if (listing.terms.type !== 'LICENSED') {
      return undefined;
    }
    return this.licences.issue(tx, {
      installationId: installation.id,
      listingId: listing.id,
      tenantId: installation.tenantId,
      publisherTenantId: listing.tenantId,
      validitySeconds: listing.terms.licenceValiditySeconds ?? 365 * 24 * 3600,
      // MK33: what the licence lets its holder call, by the listing's kind.
      entitlements: [listing.kind === 'AGENT' ? 'a2a:call' : 'mcp:call'],
    });
  }
}

export function licenceView(licence: StoredLicence, withToken: boolean): LicenceView {
  return {
    id: licence.id,
    entitlements: licence.entitlements,
    issuedAt: licence.issuedAt,
    expiresAt: licence.expiresAt,
    ...(licence.revokedAt ? { revokedAt: licence.revokedAt } : {}),
    ...(withToken ? { token: licence.token } : {}),
  };
}
