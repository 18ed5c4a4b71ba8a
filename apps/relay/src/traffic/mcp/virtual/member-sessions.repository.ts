import { Row, Tx } from '@agp/database';

/** The relay's session with one member on behalf of one client session (traffic.md T77). */
export interface MemberSession {
  /** Absent for a member that keeps no sessions (the SDK's stateless mode). */
  memberSessionId?: string;
  protocolVersion: string;
}

export interface MemberSessionKey {
  tenantId: string;
  virtualServerId: string;
  sessionKey: string;
  memberServerId: string;
}

export class MemberSessionsRepository {
  async find(tx: Tx, key: MemberSessionKey): Promise<MemberSession | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT member_session_id, protocol_version FROM relay.virtual_mcp_sessions
        WHERE tenant_id = $1 AND virtual_server_id = $2 AND session_key = $3 AND member_server_id = $4`,
      [key.tenantId, key.virtualServerId, key.sessionKey, key.memberServerId],
    );
    const row = rows[0];
    return row ? sessionOf(row) : undefined;
  }

  /** The newest opening wins: a concurrent one's member session is simply no longer used. */
  async save(tx: Tx, key: MemberSessionKey, session: MemberSession): Promise<void> {
    await tx.query(
      `INSERT INTO relay.virtual_mcp_sessions
         (tenant_id, virtual_server_id, session_key, member_server_id, member_session_id, protocol_version)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant_id, virtual_server_id, session_key, member_server_id)
       DO UPDATE SET member_session_id = EXCLUDED.member_session_id,
                     protocol_version = EXCLUDED.protocol_version, created_at = now()`,
      [
        key.tenantId,
        key.virtualServerId,
        key.sessionKey,
        key.memberServerId,
        session.memberSessionId ?? null,
        session.protocolVersion,
      ],
    );
  }

  /** Removes and returns every member session of one client session (its DELETE). */
  async takeAll(
    tx: Tx,
    key: Omit<MemberSessionKey, 'memberServerId'>,
  ): Promise<(MemberSession & { memberServerId: string })[]> {
    const rows: Row[] = await tx.query(
      `DELETE FROM relay.virtual_mcp_sessions
        WHERE tenant_id = $1 AND virtual_server_id = $2 AND session_key = $3
        RETURNING member_server_id, member_session_id, protocol_version`,
      [key.tenantId, key.virtualServerId, key.sessionKey],
    );
    return rows.map((row) => ({ ...sessionOf(row), memberServerId: String(row.member_server_id) }));
  }
}

function sessionOf(row: Row): MemberSession {
  const id = row.member_session_id;
  return {
    ...(typeof id === 'string' ? { memberSessionId: id } : {}),
    protocolVersion: String(row.protocol_version),
  };
}
