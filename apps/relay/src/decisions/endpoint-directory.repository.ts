import { Injectable } from '@nestjs/common';
import { EndpointType } from '@agp/contracts';
import { Row, str, Tx } from '@agp/database';

import { ChannelSettings } from '../channels/channel-config';

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

  /** GR36: the agent's card as last fetched (A2A data-part schemas, GR22); undefined if none. */
  async agentCard(
    tx: Tx,
    tenantId: string,
    agentId: string,
  ): Promise<Record<string, unknown> | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT agent_card FROM ${S}.agents WHERE tenant_id = $1 AND id = $2`,
      [tenantId, agentId],
    );
    return (rows[0]?.agent_card as Record<string, unknown> | null | undefined) ?? undefined;
  }

  /** GR36: a channel's own settings (its disclosure terms, CH14); undefined if no such channel. */
  async channelSettings(
    tx: Tx,
    tenantId: string,
    channelId: string,
  ): Promise<ChannelSettings | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT config FROM ${S}.channels WHERE tenant_id = $1 AND id = $2`,
      [tenantId, channelId],
    );
    return rows.length === 0 ? undefined : ((rows[0].config as ChannelSettings | null) ?? {});
  }
}
