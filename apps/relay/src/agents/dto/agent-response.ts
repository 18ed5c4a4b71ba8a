import { AgentVisibility } from '@agp/contracts';

import { Agent } from '../agent.types';

export interface AgentResponse {
  id: string;
  name: string;
  status: string;
  description?: string;
  agentCardUrl?: string;
  visibility: AgentVisibility;
  owner?: { id: string; name?: string };
  riskTier?: string;
  /** D37: write-only; `"********"` when one is set. */
  a2aCredential?: string;
  a2aCredentialHeader?: string;
  a2aTimeoutMs: number;
  /** D19: where its webhooks go. */
  webhookUrl?: string;
  /** D19: while a rotated-out secret still signs beside the new one, until when. */
  webhookPreviousSecretExpiresAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** D37: the credential answered masked; D19: the previous secret's expiry while it still signs. */
export function toAgentResponse(agent: Agent, now = Date.now()): AgentResponse {
  const previousUntil = agent.webhookPreviousSecretExpiresAt;
  return {
    id: agent.id,
    name: agent.name,
    status: agent.status,
    description: agent.description,
    agentCardUrl: agent.agentCardUrl,
    visibility: agent.visibility,
    owner: agent.owner,
    riskTier: agent.riskTier,
    ...(agent.hasA2aCredential ? { a2aCredential: '********' } : {}),
    a2aCredentialHeader: agent.a2aCredentialHeader,
    a2aTimeoutMs: agent.a2aTimeoutMs,
    webhookUrl: agent.webhookUrl,
    webhookPreviousSecretExpiresAt:
      previousUntil && previousUntil.getTime() > now ? previousUntil.toISOString() : undefined,
    createdAt: agent.createdAt,
    updatedAt: agent.updatedAt,
  };
}
