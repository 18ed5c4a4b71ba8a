import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { HopDecision } from '../../decisions/decision.types';
import { StoredHitlRequest } from '../../hitl/hitl.repository';
import { HopPipeline } from '../pipeline/hop-pipeline';
import { Hop, HopOutcome, PassTerms } from '../pipeline/hop.types';
import { holdTermsOf } from '../pipeline/traffic-call';
import { JsonRpcMessage, rpcRefusal } from '../mcp/json-rpc';
import { asMasked, resendDigestOf } from '../mcp/mcp-messages';
import { A2aCall, a2aHopOf } from './a2a-call';
import { withA2aWarnings, withFileBytes, withoutFileBytes } from './a2a-messages';
import { SchemaValidator } from '../../validation/schema-validator';
import { dataPartValidation, declaredDataSchema } from '../../validation/a2a-validation';
import { validationOf } from '../../validation/validation.types';
import { paidHop, paidResendDigest } from '../payments/paid-hop';
import { JudgedPayment, X402Payments } from '../payments/x402-payments';
import { paymentCallOf } from './a2a-call';

export type JudgedA2a =
  | { kind: 'forward'; message: JsonRpcMessage; audited: Promise<void> }
  | { kind: 'refused'; answer: JsonRpcMessage; audited: Promise<void> };

/** A push held for a person (D34): stored, delivered by its approval. */
export interface HeldA2a {
  kind: 'held';
  request: StoredHitlRequest;
  audited: Promise<void>;
}

/** A2A's dialect of the hop pipeline; the pipeline admits, decides, holds and audits. */
@Injectable()
export class A2aHops {
  constructor(
    private readonly pipeline: HopPipeline,
    private readonly validator: SchemaValidator,
    private readonly payments: X402Payments,
  ) {}

  /** D60: a request carrying a judged payment is one hop with `input.payment` (PY8). */
  async judgeRequest(
    call: A2aCall,
    message: JsonRpcMessage,
    payment?: JudgedPayment,
  ): Promise<JudgedA2a> {
    const validated = this.validated(call, a2aHopOf(call, 'REQUEST', message));
    const hop = payment ? paidHop(validated, payment) : validated;
    const digest = paidResendDigest(resendDigestOf(message), payment);
    const outcome = await this.pipeline.pass(hop, termsOf(call, message, digest));
    return asA2a(
      message,
      payment ? await this.payments.judgedHop(paymentCallOf(call), payment, outcome) : outcome,
    );
  }

  async judgeAnswer(
    call: A2aCall,
    message: JsonRpcMessage,
    askedFor: { method: string; resendDigest: string },
  ): Promise<JudgedA2a> {
    const hop = this.validated(call, a2aHopOf(call, 'RESPONSE', message, askedFor.method));
    const outcome = await this.pipeline.pass(hop, termsOf(call, message, askedFor.resendDigest));
    return asA2a(message, outcome);
  }

  /** T41: a held push is only stored, never released here: its approval delivers it. */
  async judgePush(
    call: A2aCall,
    message: JsonRpcMessage,
    askedFor: { method: string; resendDigest: string },
    alongside: (tx: Tx, request: StoredHitlRequest) => Promise<void>,
  ): Promise<JudgedA2a | HeldA2a> {
    const hop = this.validated(call, a2aHopOf(call, 'RESPONSE', message, askedFor.method));
    const outcome = await this.pipeline.pass(hop, {
      ...termsOf(call, message, askedFor.resendDigest),
      deliverOnApproval: alongside,
    });
    return outcome.kind === 'HELD'
      ? { kind: 'held', request: outcome.request, audited: outcome.audited }
      : asA2a(message, outcome);
  }

  /** GR22: data parts against the schema the target's card declares for this direction. */
  private validated(call: A2aCall, hop: Hop): Hop {
    const schema = declaredDataSchema(call.card ?? call.route.target.card, hop.direction);
    const validation = validationOf(
      dataPartValidation(hop.message.json, schema, this.validator.check),
    );
    return validation ? { ...hop, validation } : hop;
  }
}

function termsOf(
  call: A2aCall,
  message: JsonRpcMessage,
  resendDigest: string,
): PassTerms<JsonRpcMessage> {
  return { applied: (decision) => applied(message, decision), ...holdTermsOf(call, resendDigest) };
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

/** A hop's outcome in A2A's JSON-RPC; a released hold goes on under the resending request's id. */
export function asA2a(message: JsonRpcMessage, outcome: HopOutcome<JsonRpcMessage>): JudgedA2a {
  const { audited } = outcome;
  switch (outcome.kind) {
    case 'DELIVERED':
      return { kind: 'forward', message: outcome.message, audited };
    case 'RELEASED':
      return {
        kind: 'forward',
        message: { ...(outcome.message as JsonRpcMessage), id: message.id },
        audited,
      };
    case 'REFUSED':
    case 'HELD': {
      const { refusal, message: why, data } = outcome.answer;
      return { kind: 'refused', answer: rpcRefusal(message.id, refusal, data, why), audited };
    }
  }
}
