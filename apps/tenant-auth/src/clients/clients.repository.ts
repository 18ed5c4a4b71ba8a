import { Injectable } from '@nestjs/common';
import { containsPattern, Row, saveRow, selectPage, Tx, Unsaved } from '@agp/database';
import { pageOffset } from '@agp/http';

import { ListClientsQueryDto } from './dto/list-clients-query.dto';
import { Client, ClientKind } from './client.types';

const TABLE = 'tenant_auth.clients';

@Injectable()
export class ClientsRepository {
  async findById(tx: Tx, tenantId: string, kind: ClientKind, id: string): Promise<Client | null> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM ${TABLE} WHERE tenant_id = $1 AND kind = $2 AND id = $3`,
      [tenantId, kind, id],
    );
    return rows[0] ? toClient(rows[0]) : null;
  }

  /** The token endpoint's lookup (system scope: the tenant is not known before the client is). */
  async findForToken(tx: Tx, id: string): Promise<Client | null> {
    const rows: Row[] = await tx.query(`SELECT * FROM ${TABLE} WHERE id = $1`, [id]);
    return rows[0] ? toClient(rows[0]) : null;
  }

  async list(
    tx: Tx,
    tenantId: string,
    kind: ClientKind,
    query: ListClientsQueryDto,
  ): Promise<[Client[], number]> {
    const where = `tenant_id = $1 AND kind = $2 AND ($3::text IS NULL OR status = $3)
      AND ($4::text IS NULL OR name ILIKE $4)`;
    const params = [
      tenantId,
      kind,
      query.status ?? null,
      query.name ? containsPattern(query.name) : null,
    ];
    const [rows, total] = await selectPage(tx, { from: TABLE, where, orderBy: 'name' }, params, {
      limit: query.pageSize,
      offset: pageOffset(query),
    });
    return [rows.map(toClient), total];
  }

  async save(tx: Tx, client: Unsaved<Client>): Promise<Client> {
    const row = await saveRow(
      tx,
      TABLE,
      {
        id: client.id,
        tenant_id: client.tenantId,
        kind: client.kind,
        name: client.name,
        description: client.description,
        status: client.status,
        secret_hash: client.secretHash,
        secret_rotated_at: client.secretRotatedAt,
        permissions: client.permissions,
      },
      { key: ['id'], isVersioned: true },
    );
    return toClient(row);
  }

  async remove(tx: Tx, tenantId: string, id: string): Promise<void> {
    await tx.query(`DELETE FROM ${TABLE} WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }
}

function toClient(row: Row): Client {
  return {
    id: row.id as string,
    tenantId: row.tenant_id as string,
    kind: row.kind as Client['kind'],
    name: row.name as string,
    description: row.description as string,
    status: row.status as Client['status'],
    secretHash: row.secret_hash as string,
    secretRotatedAt: row.secret_rotated_at as Date,
    permissions: row.permissions as string[],
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
    revision: row.revision as number,
  };
}
