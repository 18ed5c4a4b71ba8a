import { Injectable } from '@nestjs/common';
import { Row, Tx, iso } from '@agp/database';

import { StoredLicence } from './licence.types';

const S = 'relay';

/** Licences: rows both tenants of the installation read (MK7, MK23). */
@Injectable()
export class LicencesRepository {
  async insert(tx: Tx, licence: Omit<StoredLicence, 'revokedAt'>): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.marketplace_licences
         (id, tenant_id, publisher_tenant_id, installation_id, listing_id, kid, token,
          entitlements, issued_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        licence.id,
        licence.tenantId,
        licence.publisherTenantId,
        licence.installationId,
        licence.listingId,
        licence.kid,
        licence.token,
        JSON.stringify(licence.entitlements),
        licence.issuedAt,
        licence.expiresAt,
      ],
    );
  }

  async find(tx: Tx, id: string): Promise<StoredLicence | undefined> {
    const rows: Row[] = await tx.query(`SELECT * FROM ${S}.marketplace_licences WHERE id = $1`, [
      id,
    ]);
    return rows[0] ? toLicence(rows[0]) : undefined;
  }

  /** Newest first: the first one is what the installation calls under (MK25). */
  async ofInstallation(tx: Tx, installationId: string): Promise<StoredLicence[]> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${S}.marketplace_licences WHERE installation_id = $1
        ORDER BY issued_at DESC, id`,
      [installationId],
    );
    return rows.map(toLicence);
  }

  async revoke(tx: Tx, id: string): Promise<void> {
    await tx.query(
      `UPDATE ${S}.marketplace_licences SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`,
      [id],
    );
  }

  async revokeAllOf(tx: Tx, installationId: string): Promise<void> {
    await tx.query(
      `UPDATE ${S}.marketplace_licences SET revoked_at = now()
        WHERE installation_id = $1 AND revoked_at IS NULL`,
      [installationId],
    );
  }
}

function toLicence(row: Row): StoredLicence {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    publisherTenantId: String(row.publisher_tenant_id),
    installationId: String(row.installation_id),
    listingId: String(row.listing_id),
    kid: String(row.kid),
    token: String(row.token),
    entitlements: row.entitlements as string[],
    issuedAt: iso(row.issued_at)!,
    expiresAt: iso(row.expires_at)!,
    ...(row.revoked_at ? { revokedAt: iso(row.revoked_at)! } : {}),
  };
}
