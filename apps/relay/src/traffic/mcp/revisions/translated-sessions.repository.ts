import { Row, Tx } from '@agp/database';

/** One minted session of one party of one tenant (T104). */
export interface TranslatedSessionKey {
  tenantId: string;
  partyId: string;
  /** SHA-256 of the minted `Mcp-Session-Id`. */
  sessionKey: string;
}

/** What a 2025 client set in the session the relay minted for it (T104). */
export interface TranslatedSessionState {
  logLevel?: string;
  resourceUris: string[];
}

/** A session not used for this long is forgotten (its log level and subscriptions with it). */
const FORGOTTEN_AFTER = `interval '30 days'`;

export class TranslatedSessionsRepository {
  async find(tx: Tx, key: TranslatedSessionKey): Promise<TranslatedSessionState> {
    const rows: Row[] = await tx.query(
      `SELECT log_level, resource_uris FROM relay.mcp_translated_sessions
        WHERE tenant_id = $1 AND party_id = $2 AND session_key = $3`,
      keyOf(key),
    );
    const row = rows[0];
    return {
      ...(typeof row?.log_level === 'string' ? { logLevel: row.log_level } : {}),
      resourceUris: Array.isArray(row?.resource_uris) ? (row.resource_uris as string[]) : [],
    };
  }

  async setLogLevel(tx: Tx, key: TranslatedSessionKey, level: string): Promise<void> {
    await tx.query(
      `INSERT INTO relay.mcp_translated_sessions (tenant_id, party_id, session_key, log_level)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, party_id, session_key)
       DO UPDATE SET log_level = EXCLUDED.log_level, updated_at = now()`,
      [...keyOf(key), level],
    );
  }

  /** Adds (`isSubscribed`) or removes one URI; the set keeps each URI once, sorted. */
  async subscribe(
    tx: Tx,
    key: TranslatedSessionKey,
    uri: string,
    isSubscribed: boolean,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO relay.mcp_translated_sessions (tenant_id, party_id, session_key)
       VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      keyOf(key),
    );
    const rows: Row[] = await tx.query(
      `SELECT resource_uris FROM relay.mcp_translated_sessions
        WHERE tenant_id = $1 AND party_id = $2 AND session_key = $3 FOR UPDATE`,
      keyOf(key),
    );
    const uris = new Set(rows[0]?.resource_uris as string[]);
    if (isSubscribed) {
      uris.add(uri);
    } else {
      uris.delete(uri);
    }
    await tx.query(
      `UPDATE relay.mcp_translated_sessions SET resource_uris = $4::jsonb, updated_at = now()
        WHERE tenant_id = $1 AND party_id = $2 AND session_key = $3`,
      [...keyOf(key), JSON.stringify([...uris].sort())],
    );
  }

  async forget(tx: Tx, key: TranslatedSessionKey): Promise<void> {
    await tx.query(
      `DELETE FROM relay.mcp_translated_sessions
        WHERE tenant_id = $1 AND party_id = $2 AND session_key = $3`,
      keyOf(key),
    );
  }

  /** Run as the system: unused sessions of every tenant (RLS would confine it to one). */
  async forgetUnused(tx: Tx): Promise<void> {
    await tx.query(
      `DELETE FROM relay.mcp_translated_sessions WHERE updated_at < now() - ${FORGOTTEN_AFTER}`,
    );
  }
}

function keyOf(key: TranslatedSessionKey): [string, string, string] {
  return [key.tenantId, key.partyId, key.sessionKey];
}
