import { Injectable } from '@nestjs/common';

import { HopDecision } from '../../decisions/decision.types';
import { HopPipeline } from '../pipeline/hop-pipeline';
import { HopOutcome } from '../pipeline/hop.types';
import { holdTermsOf } from '../pipeline/traffic-call';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { REFUSALS } from '../pipeline/refusal-codes';
import { imposedBy } from '../../mcp-tools/tool-drift';
import { Hop } from '../pipeline/hop.types';
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
  withoutTools,
} from './mcp-messages';
import { McpToolRelist } from './mcp-tool-relist';
import { McpToolWatch } from './mcp-tool-watch';
import { SchemaValidator } from '../../validation/schema-validator';
import { toolCallValidation } from '../../validation/mcp-validation';
import { validationOf } from '../../validation/validation.types';
import { memberGrant } from './virtual/virtual-names';
import { paidHop, paidResendDigest } from '../payments/paid-hop';
import { JudgedPayment, X402Payments } from '../payments/x402-payments';
import { mcpPaymentCallOf } from './mcp-call';

/** What became of one message: what goes on (if anything), what its sender is answered. */
export interface JudgedMessage {
  forward?: JsonRpcMessage;
  /** The answer the relay gives the sender in the message's place (a refused request). */
  answer?: JsonRpcMessage;
  /** D34: held for a person, not refused: a resend with its HITL request id may still release it. */
  held?: true;
  audited: Promise<void>;
}

/** D32: MCP's dialect of the hop pipeline; the pipeline decides, holds and audits. */
@Injectable()
export class McpHops {
  constructor(
    private readonly pipeline: HopPipeline,
    private readonly directory: TrafficDirectory,
    private readonly tools: McpToolWatch,
    private readonly validator: SchemaValidator,
    private readonly payments: X402Payments,
    private readonly relists: McpToolRelist,
  ) {}

  /** D60: a request carrying a judged payment is one hop with `input.payment` (PY8). */
  async judgeFromAgent(
    call: McpCall,
    message: JsonRpcMessage,
    payment?: JudgedPayment,
  ): Promise<JudgedMessage> {
    const unpaid = hopOf(call, 'REQUEST', message);
    const hop = payment ? paidHop(unpaid, payment) : unpaid;
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
      const refused: HopOutcome<JsonRpcMessage> = {
        kind: 'REFUSED',
        cause: 'DECISION',
        answer: {
          refusal: REFUSALS.blockedByPolicy,
          message: reason,
          data: { reasons: [reason], decisionId, correlationId: call.correlationId },
        },
        audited,
      };
      // PY8: a payment for a tool the agent may not call is refused as a policy would refuse it.
      return asJsonRpc(
        message,
        payment ? await this.payments.judgedHop(mcpPaymentCallOf(call), payment, refused) : refused,
      );
    }
    const outcome = await this.pipeline.pass(await this.withToolFacts(call, hop, true), {
      applied: (decision) => applied(message, decision),
      ...holdTermsOf(call, paidResendDigest(resendDigestOf(message), payment)),
    });
    return asJsonRpc(
      message,
      payment ? await this.payments.judgedHop(mcpPaymentCallOf(call), payment, outcome) : outcome,
    );
  }

  /** A RESPONSE hop: an answer, or the server's own request (sampling, elicitation, progress). */
  async judgeFromServer(
    call: McpCall,
    message: JsonRpcMessage,
    askedFor?: AskedFor,
  ): Promise<JudgedMessage> {
    let shown = message;
    if (message.method === 'notifications/tools/list_changed') {
      // GR21: the definitions (and schemas) cached for this server are read again; GR38: the
      // relay lists them itself, beside the notification's way to the agent.
      this.tools.forgetServer(call);
      void this.relists.changed(call);
    }
    if (askedFor?.method === 'tools/list') {
      // D51: recorded as the server answered it; what toolDrift holds or blocks is not shown.
      const withheld = await this.tools.observeList(call, message);
      shown = withoutTools(filterToolList(message, await this.currentGrant(call)), withheld);
    }
    const hop = await this.withToolFacts(call, hopOf(call, 'RESPONSE', shown, askedFor), false);
    const outcome = await this.pipeline.pass(hop, {
      applied: (decision) => applied(shown, decision),
      ...holdTermsOf(call, askedFor?.resendDigest ?? resendDigestOf(message)),
    });
    return asJsonRpc(message, outcome);
  }

  /** D51, T86: on the request also what `toolDrift` imposes on a drifted or shadowing tool. */
  private async withToolFacts(call: McpCall, hop: Hop, isRequest: boolean): Promise<Hop> {
    if (hop.tool === undefined || hop.method !== 'tools/call') {
      return hop;
    }
    const drift = await this.tools.driftFor(call, hop.tool);
    if (!drift) {
      return hop;
    }
    const { toolDrift } = await this.directory.settings(call.tenantId);
    const imposed = isRequest ? imposedBy(toolDrift, hop.tool, drift) : undefined;
    const direction = isRequest ? 'REQUEST' : 'RESPONSE';
    const checked = toolCallValidation(
      direction,
      hop.message.json,
      drift.definition,
      this.validator.check,
    );
    const validation = validationOf(checked);
    return {
      ...hop,
      toolDefinition: drift.input,
      ...(imposed ? { imposed } : {}),
      ...(validation ? { validation } : {}),
    };
  }

  /** The grant as it is now (D32: a change holds within a second, also in a running session). */
  private async currentGrant(call: McpCall): Promise<ToolGrant> {
    const route = await this.directory.mcpRoute(
      call.tenantId,
      call.agentId,
      call.virtual?.id ?? call.serverId,
      partyOf(call),
    );
    // D32: a null grant is every tool; only a missing subscription offers none.
    const grant = route?.subscription ? route.subscription.tools : [];
    // D52: a virtual server is granted by the names it exposes.
    return call.virtual ? memberGrant(grant, call.virtual.prefix) : grant;
  }
}

/** D33: MASK forwards the masked message; WARN adds the warnings under `_meta`. */
function applied(message: JsonRpcMessage, decision: HopDecision): JsonRpcMessage {
  const masked =
    decision.maskedFields.length > 0 ? asMasked(message, decision.maskedMessage.json) : message;
  return decision.action === 'WARN' ? withWarnings(masked, decision.reasons) : masked;
}

/** D33, D34: a released hold goes on under the id of the message that released it. */
export function asJsonRpc(
  message: JsonRpcMessage,
  outcome: HopOutcome<JsonRpcMessage>,
): JudgedMessage {
  const { audited } = outcome;
  switch (outcome.kind) {
    case 'DELIVERED':
      return { forward: outcome.message, audited };
    case 'RELEASED': {
      const released = outcome.message as JsonRpcMessage;
      const forward = message.id === undefined ? released : { ...released, id: message.id };
      return { forward, audited };
    }
    case 'REFUSED':
    case 'HELD': {
      const { refusal, message: why, data } = outcome.answer;
      const reply = rpcRefusal(message.id, refusal, data, why);
      const held = outcome.kind === 'HELD' ? { held: true as const } : {};
      switch (kindOf(message)) {
        case 'request':
          // A refused request is answered in its place (the server asked: the server is).
          return { answer: reply, audited, ...held };
        case 'response':
          // D33: a blocked response never reaches its asker; its error does, so none hangs.
          return { forward: reply, audited, ...held };
        case 'notification':
          return { audited, ...held };
      }
    }
  }
}
