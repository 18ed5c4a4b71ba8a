import { Injectable } from '@nestjs/common';
import { Row, Tx } from '@agp/database';

/** The queries between LLM gateways and the providers they route to (D39, T16). */
@Injectable()
export class LlmGatewaysRepository {
  async knownProviderIds(tx: Tx, tenantId: string, ids: string[]): Promise<Set<string>> {
    const rows: Row[] = await tx.query(
      `SELECT id FROM relay.llm_providers WHERE tenant_id = $1 AND id = ANY($2::uuid[])`,
      [tenantId, ids],
    );
    return new Set(rows.map((r) => String(r.id)));
  }

  async routingTo(tx: Tx, tenantId: string, providerId: string): Promise<string[]> {
    const rows: Row[] = await tx.query(
      `SELECT name FROM relay.llm_gateways WHERE tenant_id = $1 AND $2 = ANY(provider_ids) ORDER BY name`,
      [tenantId, providerId],
    );
    return rows.map((r) => String(r.name));
  }
}
