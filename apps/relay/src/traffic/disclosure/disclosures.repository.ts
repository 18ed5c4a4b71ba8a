import { Injectable } from '@nestjs/common';
import { Row, Tx } from '@agp/database';

const T = 'relay.ai_disclosures';

/** traffic.md T71: the conversations whose person was told they talk to an AI. */
@Injectable()
export class DisclosuresRepository {
  async isDisclosed(tx: Tx, tenantId: string, conversationKey: string): Promise<boolean> {
    const rows: Row[] = await tx.query(
      `SELECT 1 FROM ${T} WHERE tenant_id = $1 AND conversation_key = $2`,
      [tenantId, conversationKey],
    );
    return rows.length > 0;
  }

  /** The first disclosure of a conversation stays its date; another one changes nothing. */
  async markDisclosed(
    tx: Tx,
    tenantId: string,
    conversationKey: string,
    agentId: string,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO ${T} (tenant_id, conversation_key, agent_id) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, conversation_key) DO NOTHING`,
      [tenantId, conversationKey, agentId],
    );
  }

  /** traffic.md T71: disclosures made before `before`, of every tenant; how many went. */
  async pruneOlderThan(tx: Tx, before: Date): Promise<number> {
    const rows: Row[] = await tx.query(
      `WITH gone AS (DELETE FROM ${T} WHERE disclosed_at < $1 RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before],
    );
    return Number(rows[0]?.n ?? 0);
  }
}
