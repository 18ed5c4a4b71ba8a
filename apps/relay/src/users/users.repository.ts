import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { Row, str } from '../common/sql';

export interface ProjectedUser {
  id: string;
  email: string;
  displayName?: string;
  status: string;
}

/** The relay's projection of tenant-auth's users (USER_LIFECYCLE), since it cannot read their schema (D4). */
@Injectable()
export class UsersRepository {
  async upsert(tx: Tx, tenantId: string, user: ProjectedUser): Promise<void> {
    await tx.query(
      `INSERT INTO relay.users (id, tenant_id, email, display_name, status) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET email = excluded.email, display_name = excluded.display_name,
         status = excluded.status, updated_at = now()
       WHERE relay.users.tenant_id = excluded.tenant_id`,
      [user.id, tenantId, user.email, user.displayName ?? null, user.status],
    );
  }

  async delete(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM relay.users WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }

  async find(tx: Tx, tenantId: string, id: string): Promise<ProjectedUser | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT id, email, display_name, status FROM relay.users WHERE tenant_id = $1 AND id = $2`,
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
}
