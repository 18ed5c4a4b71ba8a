import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { HopDecision } from '../../decisions/decision.types';
import { HitlHolds, HoldOutcome } from '../../hitl/hitl-holds.service';
import { StoredHitlRequest } from '../../hitl/hitl.repository';
import { HoldInput } from '../../hitl/hitl.types';
import { HopPipeline } from '../pipeline/hop-pipeline';
import { Hop, HopVerdict } from '../pipeline/hop.types';
import { decisionRefusal, holdRefusal } from '../pipeline/refusal-answers';
import { JsonRpcMessage, rpcRefusal } from '../mcp/json-rpc';
import { asMasked, resendDigestOf } from '../mcp/mcp-messages';
import { A2aCall, a2aHopOf } from './a2a-call';
import { withA2aWarnings, withFileBytes, withoutFileBytes } from './a2a-messages';

/** What became of one A2A message: what goes on, or what its sender gets in its place. */
export type JudgedA2a =
  | { kind: 'forward'; message: JsonRpcMessage; audited: Promise<void> }
  | { kind: 'refused'; answer: JsonRpcMessage; audited: Promise<void> };

/** A push held for a person (D34): stored, delivered by its approval. */
export interface HeldA2a {
  kind: 'held';
  request: StoredHitlRequest;
  audited: Promise<void>;
}

/**
 * A2A's side of the hop pipeline: the decision applied to a JSON-RPC message of either direction
 * (D33) and human review (D34). The same pipeline as MCP decides and audits.
 */
@Injectable()
export class A2aHops {
  constructor(
    private readonly pipeline: HopPipeline,
    private readonly hitl: HitlHolds,
  ) {}

  /** The caller's request on its way to the target agent (REQUEST hop). */
  async judgeRequest(call: A2aCall, message: JsonRpcMessage): Promise<JudgedA2a> {
    const hop = a2aHopOf(call, 'REQUEST', message);
    return this.settle(call, hop, message, await this.pipeline.judge(hop), resendDigestOf(message));
  }

  /** The target's answer (or one streamed event) on its way back to the caller (RESPONSE hop). */
  async judgeAnswer(
    call: A2aCall,
    message: JsonRpcMessage,
    askedFor: { method: string; resendDigest: string },
  ): Promise<JudgedA2a> {
    const hop = a2aHopOf(call, 'RESPONSE', message, askedFor.method);
    return this.settle(call, hop, message, await this.pipeline.judge(hop), askedFor.resendDigest);
  }

  /**
   * A push from the target (RESPONSE hop, traffic.md T41): judged as an answer, but a hold is only
   * stored (with what `alongside` keeps to deliver it), never released here: its approval
   * delivers it ("A held push is delivered when approved").
   */
  async judgePush(
    call: A2aCall,
    message: JsonRpcMessage,
    askedFor: { method: string; resendDigest: string },
    alongside: (tx: Tx, request: StoredHitlRequest) => Promise<void>,
  ): Promise<JudgedA2a | HeldA2a> {
    const hop = a2aHopOf(call, 'RESPONSE', message, askedFor.method);
    const verdict = await this.pipeline.judge(hop);
    if (verdict.isDelivered && verdict.decision.action === 'HUMAN_REVIEW_REQUIRED') {
      await verdict.audited;
      const input = holdInputOf(call, hop, message, verdict, askedFor.resendDigest);
      const request = await this.hitl.hold(input, alongside);
      return { kind: 'held', request, audited: Promise.resolve() };
    }
    return this.settle(call, hop, message, verdict, askedFor.resendDigest);
  }

  private async settle(
    call: A2aCall,
    hop: Hop,
    message: JsonRpcMessage,
    verdict: HopVerdict,
    resendDigest: string,
  ): Promise<JudgedA2a> {
    if (verdict.isDelivered && verdict.decision.action === 'HUMAN_REVIEW_REQUIRED') {
      return this.holdAndWait(call, hop, message, verdict, resendDigest);
    }
    if (verdict.isDelivered) {
      return {
        kind: 'forward',
        message: applied(message, verdict.decision),
        audited: verdict.audited,
      };
    }
    const {
      refusal,
      message: why,
      data,
    } = decisionRefusal(verdict.decision, verdict.decisionId, call.correlationId);
    return {
      kind: 'refused',
      answer: rpcRefusal(message.id, refusal, data, why),
      audited: verdict.audited,
    };
  }

  /** D34: held, durable with its HITL event, and waited for up to the tenant's hitlWaitSeconds. */
  private async holdAndWait(
    call: A2aCall,
    hop: Hop,
    message: JsonRpcMessage,
    verdict: HopVerdict,
    resendDigest: string,
  ): Promise<JudgedA2a> {
    await verdict.audited;
    const held = await this.hitl.hold(holdInputOf(call, hop, message, verdict, resendDigest));
    const outcome = await this.hitl.awaitDecision(held, call.hitl.waitSeconds, call.signal);
    return { ...heldOutcome(message, outcome, call), audited: Promise.resolve() };
  }
}

/** What a held hop is kept as (D34): the message as its decision left it (masked). */
function holdInputOf(
  call: A2aCall,
  hop: Hop,
  message: JsonRpcMessage,
  verdict: HopVerdict,
  resendDigest: string,
): HoldInput {
  return {
    tenantId: call.tenantId,
    protocol: hop.protocol,
    direction: hop.direction,
    agent: hop.agent,
    source: hop.source,
    sink: hop.sink,
    ...(hop.method ? { method: hop.method } : {}),
    message: applied(message, verdict.decision),
    resendDigest,
    reasons: verdict.decision.reasons,
    policyIds: [...new Set(verdict.decision.bindings.map((b) => b.groupId))],
    decisionId: verdict.decisionId,
    correlationId: call.correlationId,
    expirySeconds: call.hitl.expirySeconds,
  };
}

/** D33: MASK forwards the masked message (file bytes carried on), WARN adds warnings to metadata. */
function applied(message: JsonRpcMessage, decision: HopDecision): JsonRpcMessage {
  let result = message;
  if (decision.maskedFields.length > 0) {
    const { files } = withoutFileBytes(message);
    result = withFileBytes(asMasked(message, decision.maskedMessage.json), files);
  }
  return decision.action === 'WARN' ? withA2aWarnings(result, decision.reasons) : result;
}

/** What the sender of a held message gets, by how its hold ended (D34). */
export function heldOutcome(
  message: JsonRpcMessage,
  outcome: HoldOutcome,
  call: A2aCall,
): { kind: 'forward'; message: JsonRpcMessage } | { kind: 'refused'; answer: JsonRpcMessage } {
  if (outcome.kind === 'RELEASED') {
    const released = outcome.request.message as JsonRpcMessage;
    return { kind: 'forward', message: { ...released, id: message.id } };
  }
  const { refusal, message: why, data } = holdRefusal(outcome, call.correlationId);
  return { kind: 'refused', answer: rpcRefusal(message.id, refusal, data, why) };
}
