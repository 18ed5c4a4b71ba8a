import { Injectable } from '@nestjs/common';
import { Row, Tx } from '@agp/database';

import { newerRevision } from '../projections/revisions';

export interface ProjectedTenant {
  tenantId: string;
  slug: string;
  /** ACTIVE, SUSPENDED or DELETED. */
  status: string;
  /** tenant-auth's revision of it (issue 30); absent from producers without one. */
  revision?: number;
}

/** The relay's projection of tenant-auth's tenants (TENANT_LIFECYCLE): the slug of R15. */
@Injectable()
export class TenantsRepository {
  /** From TENANT_LIFECYCLE or tenant-auth's answer; only what is newer than the row (issue 30). */
  async upsert(tx: Tx, tenant: ProjectedTenant): Promise<void> {
    await tx.query(
      `INSERT INTO relay.tenants (tenant_id, slug, status, source_revision) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id) DO UPDATE SET slug = excluded.slug, status = excluded.status,
         updated_at = now(),
         source_revision = coalesce(excluded.source_revision, relay.tenants.source_revision)
       WHERE ${newerRevision('relay.tenants')}`,
      [tenant.tenantId, tenant.slug, tenant.status, tenant.revision ?? null],
    );
  }

  async isHeld(tx: Tx, tenantId: string): Promise<boolean> {
    const rows: Row[] = await tx.query(`SELECT 1 FROM relay.tenants WHERE tenant_id = $1`, [
      tenantId,
    ]);
    return rows.length > 0;
  }
}
