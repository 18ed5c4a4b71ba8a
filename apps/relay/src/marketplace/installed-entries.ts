import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Tx, isUniqueViolation } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_OUTBOX } from '../database/tokens';
import { VirtualMembersRepository } from '../mcp-servers/virtual/virtual-members.repository';
import { MarketplaceErrorCode, MarketplaceException } from './marketplace.exception';
import { recordEntryLifecycle } from './marketplace-events';
import { MarketplaceTargetsRepository } from './marketplace-targets.repository';
import { StoredInstallation, StoredListing } from './marketplace.types';

export interface InstalledEntry {
  id: string;
  name: string;
  installationId: string;
}

/**
 * MK12, MK31: the registry entry an install makes in the installing tenant — a PRIVATE agent, or a
 * PRIVATE MCP server without a URL of its own — and its removal with the installation (MK14, MK34).
 */
@Injectable()
export class InstalledEntries {
  private readonly members = new VirtualMembersRepository();

  constructor(
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly targets: MarketplaceTargetsRepository,
  ) {}

  /** MK9: what the publisher did to its target is not the installer's to know: one refusal. */
  async mustTargetStand(tx: Tx, listing: StoredListing): Promise<void> {
    const stands =
      listing.kind === 'AGENT'
        ? (await this.targets.agent(tx, listing.tenantId, listing.targetId))?.visibility ===
          'PUBLIC'
        : // MK40: an MCP server, as an agent, is installed while it is PUBLIC.
          (await this.targets.mcpServer(tx, listing.tenantId, listing.targetId))?.visibility ===
          'PUBLIC';
    if (!stands) {
      throw new MarketplaceException(
        MarketplaceErrorCode.ListingUnpublished,
        `listing ${listing.id} takes no installs now`,
      );
    }
  }

  async create(
    tx: Tx,
    ctx: RequestContext,
    listing: StoredListing,
    installationId: string,
  ): Promise<InstalledEntry> {
    const entry = { id: randomUUID(), name: listing.name, installationId };
    const row = { ...entry, tenantId: ctx.tenantId, description: listing.summary };
    if (listing.kind === 'AGENT') {
      await this.targets.insertInstalledAgent(tx, { ...row, card: listing.document });
      await recordEntryLifecycle(this.outbox, tx, ctx, 'AGENT', entry, 'CREATED');
      return entry;
    }
    try {
      await this.targets.insertInstalledMcpServer(tx, row);
    } catch (error) {
      if (isUniqueViolation(error)) {
        // MCP server names are unique in a tenant (the registry's rule), an install's too.
        throw new MarketplaceException(
          MarketplaceErrorCode.EntryNameTaken,
          `this tenant has an MCP server named "${listing.name}" already: rename it to install this listing`,
        );
      }
      throw error;
    }
    await recordEntryLifecycle(this.outbox, tx, ctx, 'MCP_SERVER', entry, 'CREATED');
    return entry;
  }

  async remove(tx: Tx, ctx: RequestContext, installation: StoredInstallation): Promise<void> {
    const entry = {
      id: installation.entryId,
      name: installation.listingName ?? installation.listingId,
      installationId: installation.id,
    };
    if (installation.kind === 'AGENT') {
      await this.targets.deleteInstalledAgent(tx, ctx.tenantId, entry.id);
    } else {
      await this.mustNotBeMember(tx, ctx.tenantId, entry);
      await this.targets.deleteInstalledMcpServer(tx, ctx.tenantId, entry.id);
    }
    await recordEntryLifecycle(this.outbox, tx, ctx, installation.kind, entry, 'DELETED');
  }

  /**
   * MK39, D52: as a registered member is not deleted while a virtual server composes it, an
   * installed one (a virtual server stored before MK37) is not removed: no member is left dangling.
   */
  private async mustNotBeMember(tx: Tx, tenantId: string, entry: InstalledEntry): Promise<void> {
    const naming = await this.members.virtualServersNaming(tx, tenantId, entry.id);
    if (naming.length > 0) {
      throw new MarketplaceException(
        MarketplaceErrorCode.EntryInUse,
        `MCP server ${entry.name} is a member of the virtual server(s) ${naming.join(', ')}; remove it there first`,
      );
    }
  }
}
