import { AgentVisibility } from '@agp/contracts';

export interface AgentIdentity {
  id: string;
  name: string;
  status: string;
  permissions: string[];
  /** tenant-auth's revision of it (issue 30); absent from producers without one. */
  revision?: number;
}

export interface AgentMetadata {
  description?: string | null;
  agentCardUrl?: string | null;
  visibility?: AgentVisibility;
  ownerUserId?: string | null;
  riskTier?: string | null;
  /** Sealed already (D37). */
  a2aCredential?: string | null;
  a2aCredentialHeader?: string | null;
  a2aTimeoutMs?: number;
}

/** An agent as the relay keeps it: the identity projection and the registry's metadata. */
export interface Agent {
  id: string;
  name: string;
  status: string;
  description?: string;
  agentCardUrl?: string;
  visibility: AgentVisibility;
  owner?: { id: string; name?: string };
  riskTier?: string;
  /** D37: whether a sealed A2A credential is stored; the record never carries it. */
  hasA2aCredential: boolean;
  a2aCredentialHeader?: string;
  a2aTimeoutMs: number;
  /** D19: where its webhooks go. */
  webhookUrl?: string;
  /** D19: until when a rotated-out secret signs beside the new one (past values included). */
  webhookPreviousSecretExpiresAt?: Date;
  createdAt: string;
  updatedAt: string;
}
