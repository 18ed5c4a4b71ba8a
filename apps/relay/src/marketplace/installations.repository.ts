import { Injectable } from '@nestjs/common';
import { Row, Tx, iso, str } from '@agp/database';

import { InstallationStatus, ListingKind, StoredInstallation } from './marketplace.types';

const S = 'relay';

const SELECT = `SELECT i.*, pt.slug AS publisher_slug,
    l.name AS listing_name
  FROM ${S}.marketplace_installations i
  JOIN ${S}.marketplace_listings l ON l.id = i.listing_id
  LEFT JOIN ${S}.tenants pt ON pt.tenant_id = i.publisher_tenant_id`;

/** An installation is a row both of its tenants read (MK7); the service says which side asks. */
@Injectable()
export class InstallationsRepository {
  async insert(
    tx: Tx,
    row: Pick<
      StoredInstallation,
      | 'id'
      | 'tenantId'
      | 'publisherTenantId'
      | 'listingId'
      | 'kind'
      | 'targetId'
      | 'entryId'
      | 'licensed'
    >,
  ): Promise<StoredInstallation> {
    // The installer's slug is kept on the row: the publisher's hops name the installation by it.
    await tx.query(
      `INSERT INTO ${S}.marketplace_installations
         (id, tenant_id, publisher_tenant_id, listing_id, kind, target_id, entry_id, licensed,
          installer_slug)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8,
               (SELECT slug FROM ${S}.tenants WHERE tenant_id = $2))`,
      [
        row.id,
        row.tenantId,
        row.publisherTenantId,
        row.listingId,
        row.kind,
        row.targetId,
        row.entryId,
        row.licensed,
      ],
    );
    return (await this.find(tx, row.id))!;
  }

  async find(tx: Tx, id: string, lock = false): Promise<StoredInstallation | undefined> {
    const rows: Row[] = await tx.query(
      `${SELECT} WHERE i.id = $1 AND i.status <> 'REMOVED'${lock ? ' FOR UPDATE OF i' : ''}`,
      [id],
    );
    return rows[0] ? toInstallation(rows[0]) : undefined;
  }

  async active(tx: Tx, tenantId: string, listingId: string): Promise<boolean> {
    const rows: Row[] = await tx.query(
      `SELECT 1 FROM ${S}.marketplace_installations
        WHERE tenant_id = $1 AND listing_id = $2 AND status <> 'REMOVED'`,
      [tenantId, listingId],
    );
    return rows.length > 0;
  }

  async setStatus(tx: Tx, id: string, status: InstallationStatus): Promise<void> {
    await tx.query(
      `UPDATE ${S}.marketplace_installations SET status = $2, updated_at = now() WHERE id = $1`,
      [id, status],
    );
  }

  /** `side`: the installs the tenant made, or the installs of its listings (MK11). */
  async list(
    tx: Tx,
    tenantId: string,
    side: 'INSTALLED' | 'PUBLISHED',
    listingId: string | undefined,
    offset: number,
    limit: number,
  ): Promise<StoredInstallation[]> {
    const column = side === 'INSTALLED' ? 'i.tenant_id' : 'i.publisher_tenant_id';
    const rows: Row[] = await tx.query(
      `${SELECT} WHERE ${column} = $1 AND i.status <> 'REMOVED'
         AND ($2::uuid IS NULL OR i.listing_id = $2)
        ORDER BY i.created_at DESC, i.id LIMIT $3 OFFSET $4`,
      [tenantId, listingId ?? null, limit + 1, offset],
    );
    return rows.map(toInstallation);
  }
}

function toInstallation(row: Row): StoredInstallation {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    installerSlug: str(row.installer_slug),
    publisherTenantId: String(row.publisher_tenant_id),
    publisherSlug: str(row.publisher_slug),
    listingId: String(row.listing_id),
    listingName: str(row.listing_name),
    kind: String(row.kind) as ListingKind,
    targetId: String(row.target_id),
    entryId: String(row.entry_id),
    licensed: row.licensed === true,
    status: String(row.status) as InstallationStatus,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}
