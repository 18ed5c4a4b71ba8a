import { Row, Tx, queryNamed, str } from '@agp/database';

/** One provider of a gateway as the LLM path calls it (D39); the key stays sealed until then. */
export interface LlmProviderRoute {
  id: string;
  name: string;
  baseUrl: string;
  apiKeySealed?: string;
  /** The models it serves; null: whatever the caller names. */
  models: string[] | null;
  timeoutMs: number;
}

export interface LlmRoute {
  tenantSlug?: string;
  agent?: { name: string; riskTier?: string };
  gateway: {
    id: string;
    name: string;
    /** In failover order; an id whose provider is gone is left out. */
    providers: LlmProviderRoute[];
    modelMap: Record<string, string>;
  };
  /** The AGENT_TO_LLM_GATEWAY subscription (D32), absent when the agent has none. */
  subscription?: { id: string };
}

const S = 'relay';

export async function readLlmRoute(
  tx: Tx,
  tenantId: string,
  agentId: string,
  gatewayId: string,
): Promise<LlmRoute | undefined> {
  // T117: the providers in the route's statement, one named read (F53) where there were two.
  const rows: Row[] = await queryNamed(
    tx,
    `SELECT g.id, g.name, g.provider_ids, g.model_map, a.name AS agent_name, a.risk_tier,
            sub.id AS subscription_id, t.slug,
            (SELECT json_agg(json_build_object('id', p.id, 'name', p.name, 'base_url', p.base_url,
                      'api_key_ciphertext', p.api_key_ciphertext, 'models', p.models,
                      'timeout_ms', p.timeout_ms))
               FROM ${S}.llm_providers p
              WHERE p.tenant_id = g.tenant_id AND p.id = ANY(g.provider_ids)) AS providers
       FROM ${S}.llm_gateways g
       LEFT JOIN ${S}.agents a ON a.tenant_id = g.tenant_id AND a.id = $2
       LEFT JOIN ${S}.subscriptions sub ON sub.tenant_id = g.tenant_id
            AND sub.kind = 'AGENT_TO_LLM_GATEWAY' AND sub.source_id = $2 AND sub.target_id = g.id
       LEFT JOIN ${S}.tenants t ON t.tenant_id = g.tenant_id
      WHERE g.tenant_id = $1 AND g.id = $3`,
    [tenantId, agentId, gatewayId],
  );
  const row = rows[0];
  if (!row) {
    return undefined;
  }
  const order = ((row.provider_ids as string[] | null) ?? []).map(String);
  const providerRows = (row.providers as Row[] | null) ?? [];
  const byId = new Map(providerRows.map((p) => [String(p.id), toProvider(p)]));
  const agentName = str(row.agent_name);
  const riskTier = str(row.risk_tier);
  const subscriptionId = str(row.subscription_id);
  return {
    tenantSlug: str(row.slug),
    ...(agentName ? { agent: { name: agentName, ...(riskTier ? { riskTier } : {}) } } : {}),
    gateway: {
      id: String(row.id),
      name: String(row.name),
      providers: order.flatMap((id) => byId.get(id) ?? []),
      modelMap: (row.model_map as Record<string, string> | null) ?? {},
    },
    ...(subscriptionId ? { subscription: { id: subscriptionId } } : {}),
  };
}

function toProvider(row: Row): LlmProviderRoute {
  return {
    id: String(row.id),
    name: String(row.name),
    baseUrl: String(row.base_url),
    apiKeySealed: str(row.api_key_ciphertext),
    models: Array.isArray(row.models) ? row.models.map(String) : null,
    timeoutMs: Number(row.timeout_ms),
  };
}
