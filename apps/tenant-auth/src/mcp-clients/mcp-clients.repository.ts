import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { TENANT_AUTH_SCHEMA } from '../database/tokens';
import { ClientMetadata } from './client-metadata';

const S = TENANT_AUTH_SCHEMA;

/** A client a person's MCP client registered for itself (RFC 7591), or a fetched metadata document. */
export interface KnownClient {
  clientId: string;
  metadata: ClientMetadata;
}

/** identity.md I21, I24: the clients of people's MCP clients, in raw SQL. Read as the system. */
@Injectable()
export class McpClientsRepository {
  async insertRegistered(tx: Tx, client: KnownClient): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.registered_clients (client_id, client_name, redirect_uris, metadata)
       VALUES ($1, $2, $3, $4)`,
      [
        client.clientId,
        client.metadata.client_name ?? null,
        client.metadata.redirect_uris,
        client.metadata,
      ],
    );
  }

  async findRegistered(tx: Tx, clientId: string): Promise<KnownClient | null> {
    const rows: Array<{ client_id: string; metadata: ClientMetadata }> = await tx.query(
      `SELECT client_id, metadata FROM ${S}.registered_clients WHERE client_id = $1`,
      [clientId],
    );
    return rows[0] ? { clientId: rows[0].client_id, metadata: rows[0].metadata } : null;
  }

  /** I27: a use is written at most once an hour per client, so a busy client costs no writes. */
  async markUsed(tx: Tx, clientId: string): Promise<void> {
    await tx.query(
      `UPDATE ${S}.registered_clients SET last_used_at = now()
        WHERE client_id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 hour')`,
      [clientId],
    );
  }

  /**
   * I27: clients never used within a day of registering, or idle for the retention period with
   * no refresh token still alive; how many went.
   */
  async pruneIdle(tx: Tx, idleDays: number): Promise<number> {
    const rows: Array<{ n: number }> = await tx.query(
      `WITH gone AS (
         DELETE FROM ${S}.registered_clients c
          WHERE ((c.last_used_at IS NULL AND c.created_at < now() - interval '1 day')
                 OR c.last_used_at < now() - make_interval(days => $1))
            AND NOT EXISTS (SELECT 1 FROM ${S}.refresh_tokens r
                             WHERE r.client_id = c.client_id AND r.expires_at > now())
          RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [idleDays],
    );
    return rows[0]?.n ?? 0;
  }

  /** A metadata document fetched before and still fresh. */
  async findDocument(tx: Tx, url: string): Promise<ClientMetadata | null> {
    const rows: Array<{ document: ClientMetadata }> = await tx.query(
      `SELECT document FROM ${S}.client_metadata_documents WHERE url = $1 AND expires_at > now()`,
      [url],
    );
    return rows[0]?.document ?? null;
  }

  async saveDocument(
    tx: Tx,
    url: string,
    document: ClientMetadata,
    expiresAt: Date,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO ${S}.client_metadata_documents (url, document, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (url) DO UPDATE SET document = $2, expires_at = $3, fetched_at = now()`,
      [url, document, expiresAt],
    );
    await tx.query(
      `DELETE FROM ${S}.client_metadata_documents WHERE expires_at < now() - interval '1 day'`,
    );
  }
}
