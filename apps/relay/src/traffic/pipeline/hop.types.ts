import { Action, AuditEventType, MessageDirection, Protocol } from '@agp/contracts';

import { Tx } from '@agp/database';

import {
  DisclosureInput,
  EndpointRef,
  HopDecision,
  PaymentInput,
  ToolDefinitionInput,
} from '../../decisions/decision.types';
import { StoredHitlRequest } from '../../hitl/hitl.repository';
import { ValidationInput } from '../../validation/validation.types';
import { CallTrace, TraceIds } from '../tracing/call-trace';
import { RefusalAnswer } from './refusal-answers';

/** One message crossing a traffic path (D33): who sent it to whom, and what it says. */
export interface Hop {
  tenantId: string;
  tenantSlug?: string;
  correlationId: string;
  protocol: Protocol;
  direction: MessageDirection;
  source: EndpointRef;
  sink: EndpointRef;
  /** The agent on whose behalf the traffic flows: the audit actor (a person on D43's paths). */
  agent: EndpointRef;
  /** POLICY.md `user`: the person whose traffic this is (D43), for policies that ask. */
  user?: { id: string; email?: string };
  method?: string;
  tool?: string;
  /** D52: `input.virtualServer`, when the sink (or source) is a member of a virtual server. */
  virtualServer?: VirtualServerRef;
  /** D51: `input.tool.definition`, when the relay has seen the tool's definition. */
  toolDefinition?: ToolDefinitionInput;
  /** traffic.md T86: an action the relay imposes beside the policies' (the tenant's `toolDrift`). */
  imposed?: ImposedAction;
  /** D45, traffic.md T73: `input.disclosure` on a hop delivering an agent's words to a person. */
  disclosure?: DisclosureInput;
  /** D60, payments.md PY8: `input.payment`, when the message carries an x402 payment. */
  payment?: PaymentInput;
  /** POLICY.md `message`: the whole message as sent, and the text of its payload. */
  message: { json: unknown; text: string };
  /** GR19: `input.validation`, when something of the message had a schema to be checked against. */
  validation?: ValidationInput;
  /** Extra facts for the audit event's details (JSON-RPC id, session, latencies). */
  details?: Record<string, unknown>;
  /** D46, T89: the call's W3C trace context (the agent's, and what goes upstream). */
  trace?: CallTrace;
  /** T90: the hop's own span, set by the pipeline; absent: the agent's span is recorded. */
  traceIds?: TraceIds;
  /** D40: keep the (masked) content in the audit trail, not only its digest. */
  captureContent: boolean;
}

/** D52: the virtual server a hop was made for, and the member's prefix in it. */
export type VirtualServerRef = EndpointRef & { prefix: string };

/**
 * traffic.md T86: at least this action, whatever the policies decide; `reason` joins theirs.
 * WARN: a budget's soft limit reached (docs/decisions/spend.md SP10).
 */
export interface ImposedAction {
  action: 'WARN' | 'HUMAN_REVIEW_REQUIRED' | 'BLOCK';
  reason: string;
}

/** A hop the relay refused before any policy ran: kill switch, grant, rate limit, upstream fault. */
export interface Refusal {
  type: Extract<AuditEventType, 'COMMUNICATION_AUDIT' | 'SKILL_RESTRICTION' | 'RATE_LIMIT'>;
  action: Action;
  reason: string;
  details?: Record<string, unknown>;
}

/** What the pipeline made of a hop: the decision and whether the message may go on. */
export interface HopVerdict {
  decision: HopDecision;
  isDelivered: boolean;
  /** The id of the hop's COMMUNICATION_AUDIT event, which a refused sender is told (D33). */
  decisionId: string;
  /** Resolves once the hop's audit events are durable; nothing reaches the agent before. */
  audited: Promise<void>;
}

/** What a hop may be held under (D34), and the message as its decision leaves it. */
export interface PassTerms<M> {
  /** The message as a decision leaves it (masked, warned): what goes on, and what a hold keeps. */
  applied(decision: HopDecision): M;
  /** D34: how a resend of the same message is recognised (the digest of what the sender sent). */
  resendDigest: string;
  /** D34: how long the sender waits for a person, and how long the hold stays decidable. */
  hitl: { waitSeconds: number; expirySeconds: number };
  /** Aborted when the sender goes away: it stops waiting. */
  signal?: AbortSignal;
  /** T41: delivered by its approval, not a waiting sender; answered HELD at once. */
  deliverOnApproval?: (tx: Tx, request: StoredHitlRequest) => Promise<void>;
}

/** T1: `audited` resolves once the records are durable; nothing reaches anyone before. */
export type HopOutcome<M> =
  | {
      kind: 'DELIVERED';
      /** The message as its decision left it. */
      message: M;
      decision: HopDecision;
      decisionId: string;
      audited: Promise<void>;
    }
  | {
      kind: 'REFUSED';
      /** DECISION: blocked or failed by policy (D33); REVIEW: rejected or not releasable (D34). */
      cause: 'DECISION' | 'REVIEW';
      answer: RefusalAnswer;
      /** The decision, when the refusal is the decision's own. */
      decision?: HopDecision;
      audited: Promise<void>;
    }
  | {
      kind: 'HELD';
      /** D34: still pending (−31004, a 409): the request to name in a resend, and when to. */
      answer: RefusalAnswer;
      request: StoredHitlRequest;
      retryAfterSeconds: number;
      audited: Promise<void>;
    }
  | {
      kind: 'RELEASED';
      /** The held message as its decision left it, approved by a person: it goes on as it is. */
      message: unknown;
      direction: MessageDirection;
      audited: Promise<void>;
    };

/** What a resend of a held message comes to (D34): never a fresh decision. */
export type ReleaseOutcome<M> = Exclude<HopOutcome<M>, { kind: 'DELIVERED' }>;
