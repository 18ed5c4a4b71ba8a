import { Row, Tx } from '@agp/database';

import { MemberServer } from './virtual-members';

/** D52: the registered servers a virtual server names, and which virtual servers name one. */
export class VirtualMembersRepository {
  async findServers(tx: Tx, tenantId: string, ids: string[]): Promise<MemberServer[]> {
    const rows: Row[] = await tx.query(
      `SELECT id, name, transport, installation_id FROM relay.mcp_servers WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenantId, ids],
    );
    return rows.map((r) => ({
      id: String(r.id),
      name: String(r.name),
      transport: String(r.transport),
      installed: r.installation_id !== null && r.installation_id !== undefined,
    }));
  }

  /** The names of the virtual servers that have `serverId` among their members. */
  async virtualServersNaming(tx: Tx, tenantId: string, serverId: string): Promise<string[]> {
    const rows: Row[] = await tx.query(
      `SELECT name FROM relay.mcp_servers
        WHERE tenant_id = $1 AND transport = 'VIRTUAL'
          AND members @> jsonb_build_array(jsonb_build_object('serverId', $2::text))
        ORDER BY name`,
      [tenantId, serverId],
    );
    return rows.map((r) => String(r.name));
  }
}
