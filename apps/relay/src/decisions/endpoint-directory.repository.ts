import { Injectable } from '@nestjs/common';
import { EndpointType } from '@agp/contracts';
import { Row, str, Tx } from '@agp/database';

const S = 'relay';

const TABLE_OF: Readonly<Record<EndpointType, { table: string; name: string; riskTier?: string }>> =
  {
    AGENT: { table: 'agents', name: 'name', riskTier: 'risk_tier' },
    USER: { table: 'users', name: 'coalesce(display_name, email)' },
    CHANNEL: { table: 'channels', name: 'name' },
    MCP_SERVER: { table: 'mcp_servers', name: 'name' },
    LLM_GATEWAY: { table: 'llm_gateways', name: 'name' },
  };

export interface EndpointDescription {
  name?: string;
  riskTier?: string;
}

@Injectable()
export class EndpointDirectoryRepository {
  async describe(
    tx: Tx,
    tenantId: string,
    type: EndpointType,
    id: string,
  ): Promise<EndpointDescription | undefined> {
    return (await this.describeAll(tx, tenantId, [{ type, id }]))[0];
  }

  /** Several endpoints in one round trip, in the order asked (undefined: not in the registry). */
  async describeAll(
    tx: Tx,
    tenantId: string,
    endpoints: Array<{ type: EndpointType; id: string }>,
  ): Promise<Array<EndpointDescription | undefined>> {
    const selects = endpoints.map(({ type }, i) => {
      const { table, name, riskTier } = TABLE_OF[type];
      return `SELECT ${i} AS position, ${name} AS name, ${riskTier ?? 'NULL'} AS risk_tier FROM ${S}.${table} WHERE tenant_id = $1 AND id = $${i + 2}`;
    });
    const rows: Row[] = await tx.query(selects.join(' UNION ALL '), [
      tenantId,
      ...endpoints.map((e) => e.id),
    ]);
    return endpoints.map((_e, i) => {
      const row = rows.find((r) => Number(r.position) === i);
      return row ? { name: str(row.name), riskTier: str(row.risk_tier) } : undefined;
    });
  }
}
