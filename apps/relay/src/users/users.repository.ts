import { Injectable } from '@nestjs/common';
import { Row, str, Tx } from '@agp/database';

import { missingOf, newerRevision } from '../projections/revisions';

export interface ProjectedUser {
  id: string;
  email: string;
  displayName?: string;
  /** ACTIVE, DISABLED, or DELETED (kept as a tombstone so no older event brings it back). */
  status: string;
  /** tenant-auth's revision of it (issue 30); absent from producers without one. */
  revision?: number;
}

/** The relay's projection of tenant-auth's users (USER_LIFECYCLE), since it cannot read their schema (D4). */
@Injectable()
export class UsersRepository {
  /** From USER_LIFECYCLE or tenant-auth's answer; only what is newer than the row (issue 30). */
  async upsert(tx: Tx, tenantId: string, user: ProjectedUser): Promise<void> {
    await tx.query(
      `INSERT INTO relay.users (id, tenant_id, email, display_name, status, source_revision)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET email = excluded.email, display_name = excluded.display_name,
         status = excluded.status, updated_at = now(),
         source_revision = coalesce(excluded.source_revision, relay.users.source_revision)
       WHERE relay.users.tenant_id = excluded.tenant_id AND ${newerRevision('relay.users')}`,
      [user.id, tenantId, user.email, user.displayName ?? null, user.status, user.revision ?? null],
    );
  }

  async find(tx: Tx, tenantId: string, id: string): Promise<ProjectedUser | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT id, email, display_name, status FROM relay.users
       WHERE tenant_id = $1 AND id = $2 AND status <> 'DELETED'`,
      [tenantId, id],
    );
    const row = rows[0];
    return row
      ? {
          id: String(row.id),
          email: String(row.email),
          displayName: str(row.display_name),
          status: String(row.status),
        }
      : undefined;
  }

  async missing(tx: Tx, tenantId: string, ids: readonly string[]): Promise<string[]> {
    return missingOf(tx, 'relay.users', tenantId, ids);
  }
}
