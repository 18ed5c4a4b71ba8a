import { REFUSALS } from '@agp/contracts/enums';

/** One line of a person's conversation with an agent, as the chat shows it. */
export type ChatTurn =
  | { kind: 'person'; id: string; text: string }
  | {
      kind: 'agent';
      id: string;
      text: string;
      state?: string;
      /** D45, traffic.md T74: the relay tells the person they talk to an AI. */
      disclosure?: string;
      /** traffic.md T72: the relay marked the answer as AI-generated. */
      isMarked?: boolean;
    }
  /** D34: held for a reviewer; resending with the request id delivers it once approved. */
  | { kind: 'held'; id: string; text: string; hitlRequestId: string; reasons: string[] }
  /** D33, D35, D36, D41: refused by policy, a reviewer, a kill switch or a rate limit. */
  | { kind: 'refused'; id: string; text: string; agpCode: string; reasons: string[] }
  /** The agent or the relay could not answer (an upstream fault, a problem+json). */
  | { kind: 'failed'; id: string; text: string };

/** What the relay answered one `message/send` with: a JSON-RPC answer (A2A 0.3, D38). */
export interface A2aReply {
  result?: unknown;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

type Json = Record<string, unknown>;

const REFUSAL_TITLES: Record<string, string> = {
  [REFUSALS.blockedByPolicy.agpCode]: 'Blocked by policy',
  [REFUSALS.policyError.agpCode]: 'Blocked: the policy could not be evaluated',
  [REFUSALS.reviewRejected.agpCode]: 'Rejected by a reviewer',
  [REFUSALS.killSwitch.agpCode]: 'Stopped: a kill switch is engaged',
  [REFUSALS.rateLimited.agpCode]: 'Too many messages: try again shortly',
};

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOfParts(parts: unknown): string {
  if (!Array.isArray(parts)) {
    return '';
  }
  return parts
    .filter(isRecord)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/**
 * The text an A2A result carries: a message's parts, or a task's artifacts (then its status
 * message), as A2A 0.3 shapes them.
 */
export function resultText(result: unknown): string {
  if (!isRecord(result)) {
    return '';
  }
  if (result.kind === 'message' || Array.isArray(result.parts)) {
    return textOfParts(result.parts);
  }
  const artifacts = Array.isArray(result.artifacts) ? result.artifacts.filter(isRecord) : [];
  const fromArtifacts = artifacts.map((a) => textOfParts(a.parts)).filter(Boolean);
  if (fromArtifacts.length > 0) {
    return fromArtifacts.join('\n');
  }
  const status = isRecord(result.status) ? result.status : {};
  return isRecord(status.message) ? textOfParts(status.message.parts) : '';
}

function reasonsOf(data: Json | undefined): string[] {
  const reasons = data?.reasons;
  return Array.isArray(reasons) ? reasons.map(String) : [];
}

/** The relay's answer to one message, as the chat shows it (D33, D34, D41). */
export function turnOf(id: string, reply: A2aReply): ChatTurn {
  if (reply.error) {
    const data = reply.error.data;
    const agpCode = typeof data?.agpCode === 'string' ? data.agpCode : '';
    if (agpCode === REFUSALS.reviewPending.agpCode && typeof data?.hitlRequestId === 'string') {
      return {
        kind: 'held',
        id,
        text: 'Held for human review: a reviewer must approve this message before it goes on.',
        hitlRequestId: data.hitlRequestId,
        reasons: reasonsOf(data),
      };
    }
    if (agpCode) {
      return {
        kind: 'refused',
        id,
        text: REFUSAL_TITLES[agpCode] ?? reply.error.message,
        agpCode,
        reasons: reasonsOf(data),
      };
    }
    return { kind: 'failed', id, text: reply.error.message };
  }
  const result = isRecord(reply.result) ? reply.result : {};
  const status = isRecord(result.status) ? result.status : {};
  const agp = isRecord(result.metadata) && isRecord(result.metadata.agp) ? result.metadata.agp : {};
  const disclosure = isRecord(agp.aiDisclosure) ? agp.aiDisclosure.text : undefined;
  return {
    kind: 'agent',
    id,
    text: resultText(result) || '(no text in the answer)',
    ...(typeof status.state === 'string' ? { state: status.state } : {}),
    ...(typeof disclosure === 'string' ? { disclosure } : {}),
    ...(isRecord(agp.syntheticContent) ? { isMarked: true } : {}),
  };
}

/** A2A 0.3: the conversation's `contextId`, which the next message carries on. */
export function contextIdOf(reply: A2aReply): string | undefined {
  return isRecord(reply.result) && typeof reply.result.contextId === 'string'
    ? reply.result.contextId
    : undefined;
}
