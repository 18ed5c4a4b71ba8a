import { MessageDirection, Protocol } from '@agp/contracts';

import { EndpointRef } from '../decisions/decision.types';

export const HITL_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED', 'RELEASED'] as const;
export type HitlStatus = (typeof HITL_STATUSES)[number];

/** D34: a held hop and what became of it. */
export interface HitlRequest {
  id: string;
  status: HitlStatus;
  protocol: Protocol;
  direction: MessageDirection;
  agentId: string;
  source: EndpointRef;
  sink: EndpointRef;
  method: string | null;
  tool: string | null;
  /** The hop as its decision left it (masked): what is delivered once approved. */
  message: unknown;
  reasons: string[];
  policyIds: string[];
  decisionId: string;
  correlationId: string;
  expiresAt: string;
  decidedBy: string | null;
  decidedByLabel: string | null;
  decidedAt: string | null;
  note: string | null;
  releasedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The API's view: the request and how long its sender has waited (or waited until decided). */
export interface HitlRequestResponse extends HitlRequest {
  waitedSeconds: number;
}

/** What a held hop is made into (the traffic path's side of D34). */
export interface HoldInput {
  tenantId: string;
  protocol: Protocol;
  direction: MessageDirection;
  agent: EndpointRef;
  source: EndpointRef;
  sink: EndpointRef;
  method?: string;
  tool?: string;
  message: unknown;
  resendDigest: string;
  reasons: string[];
  policyIds: string[];
  decisionId: string;
  correlationId: string;
  expirySeconds: number;
}
