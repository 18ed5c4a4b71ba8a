import {
  Action,
  BindingLevel,
  DecisionAction,
  EndpointType,
  MessageDirection,
  Protocol,
} from '@agp/contracts';

import { ValidationInput } from '../validation/validation.types';

export interface EndpointRef {
  type: EndpointType;
  id: string;
  name?: string;
  riskTier?: string;
}

/** The input document of POLICY.md, for one message hop. Fields that do not apply are absent. */
export interface DecisionInput {
  tenant: { id: string; slug?: string };
  protocol: Protocol;
  direction: MessageDirection;
  source: EndpointRef;
  sink: EndpointRef;
  method?: string;
  /** D52: the virtual server the hop was made for; `sink` (or `source`) is then its member. */
  virtualServer?: EndpointRef & { prefix: string };
  /** D51: `definition` when the relay has seen the tool's definition (traffic.md T86). */
  tool?: { name: string; definition?: ToolDefinitionInput };
  message: { text: string; json: unknown };
  /** GR19: what of the message was checked against its schemas (never blocks by itself). */
  validation?: ValidationInput;
  user?: { id: string; email?: string };
  /** D45, traffic.md T73: on a hop delivering an agent's words to a person. */
  disclosure?: DisclosureInput;
  /** D60, payments.md PY8: on a hop carrying an x402 payment. */
  payment?: PaymentInput;
  correlationId?: string;
  time: string;
}

/**
 * payments.md PY10: an x402 payment's terms, as `details.payment` of every X402_* event. Amounts
 * are exact decimal strings (USD: USDC 1:1); the signed payload is never part of it (PY12).
 */
export interface PaymentTerms {
  amountUsd: string;
  amountAtomic: string;
  asset: string;
  network: string;
  payTo: string;
  scheme: string;
  description?: string;
  resource?: string;
}

/** D60 `input.payment` (PY8): the terms, and `amount` in USD as a number Rego compares. */
export interface PaymentInput extends PaymentTerms {
  amount: number;
}

/** POLICY.md's project twin `input.disclosure` (D45, traffic.md T73). */
export interface DisclosureInput {
  mode: 'OFF' | 'FIRST_MESSAGE' | 'EVERY_MESSAGE';
  /** The person of this conversation was told before (traffic.md T71). */
  madeBefore: boolean;
  /** This message carries the disclosure when delivered. */
  willBeMade: boolean;
  /** This message carries the synthetic-content marking when delivered. */
  contentMarking: boolean;
}

/** D51 `input.tool.definition` plus T86's `status`, `shadowedBy` and GR14's `findings`. */
export interface ToolDefinitionInput {
  hash: string;
  pinned: boolean;
  changedFields: string[];
  status: 'PINNED' | 'CHANGED' | 'NEW';
  shadowedBy?: string[];
  findings?: { field: string; type: string; score: number }[];
}

export interface MaskEntry {
  path: string;
  pattern?: string;
  label?: string;
  /** GR8: mask what this engine finds in the strings at `path`, each span by its type label. */
  detector?: 'PII' | 'SECRETS' | 'PROMPT_INJECTION';
  /** GR8: only these finding types (all when absent). */
  types?: string[];
}

export interface Detection {
  kind: string;
  label: string;
  path?: string;
  /** GR9: how many findings of this label; the audit records counts, never the matched text. */
  count?: number;
  /** GR18: the tenant pattern set (D53) a REGEX detection came from, and its pattern's mode. */
  set?: string;
  mode?: string;
}

/** A well-formed decision of one policy (D22), defaults filled in. */
export interface PolicyDecision {
  action: DecisionAction;
  reasons: string[];
  mask: MaskEntry[];
  detections: Detection[];
}

/** What one binding's bound version said about the hop: its decision, or ERROR and why. */
export interface BindingResult {
  bindingId: string;
  bindingLevel: BindingLevel;
  priority: number;
  groupId: string;
  groupName: string;
  groupVersion: string;
  action: Action;
  reasons: string[];
  mask: MaskEntry[];
  detections: Detection[];
  error?: string;
}

/** The combined decision for a hop (D22), each binding's own result, and the message as masked. */
export interface HopDecision {
  action: Action;
  /** Whether the hop must not be delivered: BLOCK, or ERROR while the tenant fails closed. */
  isBlocked: boolean;
  failOpen: boolean;
  reasons: string[];
  mask: MaskEntry[];
  detections: Detection[];
  /** Paths of `message.json` that a mask changed. */
  maskedFields: string[];
  bindings: BindingResult[];
  maskedMessage: { text: string; json: unknown };
}
