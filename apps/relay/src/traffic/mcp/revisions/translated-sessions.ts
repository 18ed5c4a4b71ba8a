import { createHash } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';

import { Inject, Injectable } from '@nestjs/common';
import { Database, Row, Tx } from '@agp/database';

import { RELAY_DATABASE } from '../../../database/tokens';
import { McpCall } from '../mcp-call';

/** What a 2025 client set in the session the relay minted for it (T104). */
export interface TranslatedSessionState {
  logLevel?: string;
  resourceUris: string[];
}

/** A session not used for this long is forgotten (its log level and subscriptions with it). */
const FORGOTTEN_AFTER = `interval '30 days'`;
/**
 * T104: a minted session id says what the client declared at `initialize` (T97); what it sets
 * later (`logging/setLevel`, `resources/subscribe`) is kept here, so any replica carries it.
 */
@Injectable()
export class TranslatedSessions {
  constructor(@Inject(RELAY_DATABASE) private readonly database: Database) {}

  async stateOf(call: McpCall): Promise<TranslatedSessionState> {
    const rows: Row[] = await this.database.inTenant(call.tenantId, (tx) =>
      tx.query(
        `SELECT log_level, resource_uris FROM relay.mcp_translated_sessions
          WHERE tenant_id = $1 AND party_id = $2 AND session_key = $3`,
        [call.tenantId, call.agentId, sessionKeyOf(call.agentHeaders)],
      ),
    );
    const row = rows[0];
    return {
      ...(typeof row?.log_level === 'string' ? { logLevel: row.log_level } : {}),
      resourceUris: Array.isArray(row?.resource_uris) ? (row.resource_uris as string[]) : [],
    };
  }

  setLogLevel(call: McpCall, level: string): Promise<void> {
    return this.change(call, (tx, key) =>
      tx.query(
        `INSERT INTO relay.mcp_translated_sessions (tenant_id, party_id, session_key, log_level)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id, party_id, session_key)
         DO UPDATE SET log_level = EXCLUDED.log_level, updated_at = now()`,
        [...key, level],
      ),
    );
  }

  /** Adds (`isSubscribed`) or removes one URI; the set keeps each URI once. */
  subscribe(call: McpCall, uri: string, isSubscribed: boolean): Promise<void> {
    return this.change(call, async (tx, key) => {
      await tx.query(
        `INSERT INTO relay.mcp_translated_sessions (tenant_id, party_id, session_key)
         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        key,
      );
      const rows: Row[] = await tx.query(
        `SELECT resource_uris FROM relay.mcp_translated_sessions
          WHERE tenant_id = $1 AND party_id = $2 AND session_key = $3 FOR UPDATE`,
        key,
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
        [...key, JSON.stringify([...uris].sort())],
      );
    });
  }

  /** The client's DELETE ends what was kept of its session. */
  forget(call: McpCall): Promise<void> {
    return this.change(call, (tx, key) =>
      tx.query(
        `DELETE FROM relay.mcp_translated_sessions
          WHERE tenant_id = $1 AND party_id = $2 AND session_key = $3`,
        key,
      ),
    );
  }

  private async change(
    call: McpCall,
    work: (tx: Tx, key: [string, string, string]) => Promise<unknown>,
  ): Promise<void> {
    await this.database.inTenant(call.tenantId, async (tx) => {
      await tx.query(
        `DELETE FROM relay.mcp_translated_sessions WHERE updated_at < now() - ${FORGOTTEN_AFTER}`,
      );
      await work(tx, [call.tenantId, call.agentId, sessionKeyOf(call.agentHeaders)]);
    });
  }
}

/** The minted id is the client's declaration (and a nonce): long, so it is keyed by digest. */
function sessionKeyOf(headers: IncomingHttpHeaders): string {
  return createHash('sha256')
    .update(String(headers['mcp-session-id'] ?? ''))
    .digest('base64url');
}
