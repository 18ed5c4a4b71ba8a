import { Injectable } from '@nestjs/common';

import { HopDecision } from '../../decisions/decision.types';
import { HitlHolds, HoldOutcome } from '../../hitl/hitl-holds.service';
import { HopPipeline } from '../pipeline/hop-pipeline';
import { Hop, HopVerdict } from '../pipeline/hop.types';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { decisionRefusal, holdRefusal } from '../pipeline/refusal-answers';
import { REFUSALS } from '../pipeline/refusal-codes';
import { JsonRpcMessage, kindOf, rpcRefusal } from './json-rpc';
import { McpCall, hopOf, partyOf } from './mcp-call';
import {
  AskedFor,
  ToolGrant,
  asMasked,
  filterToolList,
  isGranted,
  resendDigestOf,
  toolOf,
  withWarnings,
} from './mcp-messages';

/** What became of one message: what goes on (if anything), what its sender is answered. */
export interface JudgedMessage {
  /** The message to pass on, as its decision left it. */
  forward?: JsonRpcMessage;
  /** The answer the relay gives the sender in the message's place (a refused request). */
  answer?: JsonRpcMessage;
  audited: Promise<void>;
}

/**
 * MCP's side of the hop pipeline: the grant (D32), the decision applied to a JSON-RPC message
 * (D33) and what a refused message becomes, for each message in either direction.
 */
@Injectable()
export class McpHops {
  constructor(
    private readonly pipeline: HopPipeline,
    private readonly directory: TrafficDirectory,
    private readonly hitl: HitlHolds,
  ) {}

  /** An agent's message on its way to the server (REQUEST hop). */
  async judgeFromAgent(call: McpCall, message: JsonRpcMessage): Promise<JudgedMessage> {
    const hop = hopOf(call, 'REQUEST', message);
    const tool = toolOf(message);
    const grant = call.route.subscription?.tools ?? null;
    if (tool !== undefined && !isGranted(grant, tool)) {
      const reason = `the tool "${tool}" is not granted to this agent`;
      const { decisionId, audited } = this.pipeline.refusing(hop, {
        type: 'SKILL_RESTRICTION',
        action: 'BLOCK',
        reason,
        details: { subscriptionId: call.route.subscription?.id, grantedTools: grant },
      });
      return {
        answer: rpcRefusal(
          message.id,
          REFUSALS.blockedByPolicy,
          { reasons: [reason], decisionId, correlationId: call.correlationId },
          reason,
        ),
        audited,
      };
    }
    const verdict = await this.pipeline.judge(hop);
    if (verdict.isDelivered && verdict.decision.action === 'HUMAN_REVIEW_REQUIRED') {
      return this.holdAndWait(call, hop, message, verdict, resendDigestOf(message));
    }
    if (verdict.isDelivered) {
      return { forward: applied(message, verdict.decision), audited: verdict.audited };
    }
    const refusal = refusalOf(message, verdict.decision, verdict.decisionId, call);
    // A refused answer to the server's own request still answers it, so the server never hangs.
    return kindOf(message) === 'response'
      ? { forward: refusal, audited: verdict.audited }
      : {
          ...(kindOf(message) === 'request' ? { answer: refusal } : {}),
          audited: verdict.audited,
        };
  }

  /**
   * The server's message on its way to the agent (RESPONSE hop): an answer to `askedFor`, or a
   * request or notification of the server's own (sampling, elicitation, progress).
   */
  async judgeFromServer(
    call: McpCall,
    message: JsonRpcMessage,
    askedFor?: AskedFor,
  ): Promise<JudgedMessage> {
    let shown = message;
    if (askedFor?.method === 'tools/list') {
      shown = filterToolList(message, await this.currentGrant(call));
    }
    const hop = hopOf(call, 'RESPONSE', shown, askedFor);
    const verdict = await this.pipeline.judge(hop);
    if (verdict.isDelivered && verdict.decision.action === 'HUMAN_REVIEW_REQUIRED') {
      const digest = askedFor?.resendDigest ?? resendDigestOf(message);
      return this.holdAndWait(call, hop, shown, verdict, digest);
    }
    if (verdict.isDelivered) {
      return { forward: applied(shown, verdict.decision), audited: verdict.audited };
    }
    const refusal = refusalOf(message, verdict.decision, verdict.decisionId, call);
    switch (kindOf(message)) {
      case 'response':
        // D33: a blocked response never reaches the agent; its error does.
        return { forward: refusal, audited: verdict.audited };
      case 'request':
        // The server asked the agent; the relay answers the server in the agent's place.
        return { answer: refusal, audited: verdict.audited };
      case 'notification':
        return { audited: verdict.audited };
    }
  }

  /**
   * D34: the hop becomes a HITL request (durable, with its HITL event) and the sender waits up to
   * the tenant's `hitlWaitSeconds`: approved in time, the message as its decision left it goes
   * on (released exactly once); rejected, -31003; still pending, -31004 with the request's id.
   */
  private async holdAndWait(
    call: McpCall,
    hop: Hop,
    message: JsonRpcMessage,
    verdict: HopVerdict,
    resendDigest: string,
  ): Promise<JudgedMessage> {
    await verdict.audited;
    const decided = applied(message, verdict.decision);
    const held = await this.hitl.hold({
      tenantId: call.tenantId,
      protocol: 'MCP',
      direction: hop.direction,
      agent: hop.agent,
      source: hop.source,
      sink: hop.sink,
      ...(hop.method ? { method: hop.method } : {}),
      ...(hop.tool ? { tool: hop.tool } : {}),
      message: decided,
      resendDigest,
      reasons: verdict.decision.reasons,
      policyIds: [...new Set(verdict.decision.bindings.map((b) => b.groupId))],
      decisionId: verdict.decisionId,
      correlationId: call.correlationId,
      expirySeconds: call.hitl.expirySeconds,
    });
    const outcome = await this.hitl.awaitDecision(held, call.hitl.waitSeconds, call.signal);
    return { ...heldOutcome(message, outcome, call), audited: Promise.resolve() };
  }

  /** The grant as it is now (D32: a change holds within a second, also in a running session). */
  private async currentGrant(call: McpCall): Promise<ToolGrant> {
    const route = await this.directory.mcpRoute(
      call.tenantId,
      call.agentId,
      call.serverId,
      partyOf(call),
    );
    // D32: a null grant is every tool; only a missing subscription offers none.
    return route?.subscription ? route.subscription.tools : [];
  }
}

/** D33: MASK forwards the masked message; WARN adds the warnings under `_meta`. */
function applied(message: JsonRpcMessage, decision: HopDecision): JsonRpcMessage {
  const masked =
    decision.maskedFields.length > 0 ? asMasked(message, decision.maskedMessage.json) : message;
  return decision.action === 'WARN' ? withWarnings(masked, decision.reasons) : masked;
}

function refusalOf(
  message: JsonRpcMessage,
  decision: HopDecision,
  decisionId: string,
  call: McpCall,
): JsonRpcMessage {
  const { refusal, message: why, data } = decisionRefusal(decision, decisionId, call.correlationId);
  return rpcRefusal(message.id, refusal, data, why);
}

/** What the sender of a held message gets, by how its hold ended (D34). */
export function heldOutcome(
  message: JsonRpcMessage,
  outcome: HoldOutcome,
  call: McpCall,
): Omit<JudgedMessage, 'audited'> {
  if (outcome.kind === 'RELEASED') {
    const released = outcome.request.message as JsonRpcMessage;
    return { forward: message.id === undefined ? released : { ...released, id: message.id } };
  }
  const { refusal, message: why, data } = holdRefusal(outcome, call.correlationId);
  const reply = rpcRefusal(message.id, refusal, data, why);
  return kindOf(message) === 'request'
    ? { answer: reply }
    : kindOf(message) === 'response'
      ? { forward: reply }
      : {};
}
