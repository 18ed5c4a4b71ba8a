import { Injectable } from '@nestjs/common';
import { EndpointType } from '@agp/contracts';
import { Tx } from '@agp/database';

import { Row, str } from '../common/sql';

const S = 'relay';

const TABLE_OF: Readonly<Record<EndpointType, { table: string; name: string; riskTier?: string }>> = {
  AGENT: { table: 'agents', name: 'name', riskTier: 'risk_tier' },
  USER: { table: 'users', name: 'coalesce(display_name, email)' },
  CHANNEL: { table: 'channels', name: 'name' },
  MCP_SERVER: { table: 'mcp_servers', name: 'name' },
  LLM_GATEWAY: { table: 'llm_gateways', name: 'name' },
};

/** Names and risk tiers of the endpoints of a hop, from the relay's registry. */
@Injectable()
export class EndpointDirectoryRepository {
  async describe(tx: Tx, tenantId: string, type: EndpointType, id: string): Promise<{ name?: string; riskTier?: string } | undefined> {
    const { table, name, riskTier } = TABLE_OF[type];
    const rows: Row[] = await tx.query(
      `SELECT ${name} AS name, ${riskTier ?? 'NULL'} AS risk_tier FROM ${S}.${table} WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0] ? { name: str(rows[0].name), riskTier: str(rows[0].risk_tier) } : undefined;
  }
}
