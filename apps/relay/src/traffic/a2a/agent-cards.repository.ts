import { Injectable } from '@nestjs/common';
import { Row, str, Tx } from '@agp/database';

import { AgentCardJson } from './agent-card';

export interface StoredAgent {
  id: string;
  name: string;
  status: string;
  agentCardUrl?: string;
  card?: AgentCardJson;
}

/** The agent card kept in the registry's agent row (D38, D21). */
@Injectable()
export class AgentCardsRepository {
  async find(tx: Tx, tenantId: string, agentId: string): Promise<StoredAgent | undefined> {
    const rows: Row[] = await tx.query(
      `SELECT id, name, status, agent_card_url, agent_card FROM relay.agents
        WHERE tenant_id = $1 AND id = $2 AND status <> 'DELETED'`,
      [tenantId, agentId],
    );
    const row = rows[0];
    if (!row) {
      return undefined;
    }
    return {
      id: String(row.id),
      name: String(row.name),
      status: String(row.status),
      agentCardUrl: str(row.agent_card_url),
      ...(row.agent_card ? { card: row.agent_card as AgentCardJson } : {}),
    };
  }

  async keepCard(tx: Tx, tenantId: string, agentId: string, card: AgentCardJson): Promise<void> {
    await tx.query(
      `UPDATE relay.agents SET agent_card = $3, agent_card_fetched_at = now()
        WHERE tenant_id = $1 AND id = $2`,
      [tenantId, agentId, JSON.stringify(card)],
    );
  }
}
