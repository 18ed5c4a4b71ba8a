/** T43, D19: the push's judged body to the caller's URL, signed as webhooks are. */
export const A2A_PUSH_EVENT_TYPE = 'A2A_PUSH_NOTIFICATION';

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One try to deliver: what was sent where, and what came back. */
export interface WebhookAttempt {
  attempt: number;
  attemptedAt: string;
  url: string;
  durationMs: number;
  statusCode?: number;
  error?: string;
  /** The first KiB of the receiver's answer, to see why it refused. */
  responseExcerpt?: string;
  /** How many `v1=` signatures it carried (2 during a secret rotation's overlap). */
  signatures: number;
}

/** A delivery as the API answers it (D19: kept, FAILED included, with every attempt). */
export interface WebhookDelivery {
  id: string;
  agentId: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  nextAttemptAt?: string;
  lastStatusCode?: number;
  lastError?: string;
  deliveredAt?: string;
  /** The body every attempt sends (D19), as JSON. */
  body: Record<string, unknown>;
  attempts: WebhookAttempt[];
  createdAt: string;
  updatedAt: string;
}

/** A delivery one replica holds (its lease) while it sends it, with what it needs to sign it. */
export interface ClaimedDelivery {
  id: string;
  tenantId: string;
  agentId: string;
  eventType: string;
  correlationId: string;
  payload: string;
  roundAttempts: number;
  leaseToken: string;
  agentStatus?: string;
  url?: string;
  secretCiphertexts: string[];
  /** Sealed JSON of headers sent besides D19's (an A2A push: its content type and the caller's token). */
  headersCiphertext?: string;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  url: string;
  attemptedAt: Date;
  durationMs: number;
  statusCode?: number;
  error?: string;
  responseExcerpt?: string;
  signatures: number;
}

/** Where an attempt leaves its delivery. */
export interface NextState {
  status: WebhookDeliveryStatus;
  nextAttemptAt: Date | null;
}
