import { Injectable } from '@nestjs/common';
import { Dispatcher } from 'undici';

import { HopPipeline } from '../pipeline/hop-pipeline';
import { InstalledLicences } from '../pipeline/installed-licences';
import { REFUSALS, Refusal } from '../pipeline/refusal-codes';
import { jsonResponse, rawResponse, streamResponse } from '../pipeline/in-process-answer';
import { JsonRpcMessage, rpcRefusal } from '../mcp/json-rpc';
import { A2aCall, a2aHopOf, a2aLabel } from './a2a-call';
import { A2aAnswer } from './a2a-exchange';
import { A2aUpstreamFailure } from './a2a-upstream';
import type { A2aCaller } from './a2a-relay.service';
import { x402AnswerHeaders } from '../payments/x402-messages';

/** The A2A relay as the publisher's side is reached: one in-process call (MK16). */
export type PublisherRelay = (
  caller: A2aCaller,
  targetId: string,
  body: unknown,
) => Promise<A2aAnswer>;

/** Headers of the A2A binding that cross to the publisher's side, as they would go upstream (D38). */
const CROSSING_HEADERS = ['a2a-version', 'a2a-extensions', 'traceparent', 'tracestate'];

/**
 * MK16–MK18: an installed entry's upstream is its publisher's agent, reached in-process as a
 * second call on the publisher's side: there the installation is the calling party, so the
 * publisher's kill switches, rate limits, bindings and trail apply to it as to any caller, and
 * the installer's agent, user and tenant stay on the installer's side. The answer comes back as
 * an upstream's would, and the installer's side judges it as any answer.
 */
@Injectable()
export class InstalledAgents {
  private publisher?: PublisherRelay;

  constructor(
    private readonly pipeline: HopPipeline,
    private readonly licences: InstalledLicences,
  ) {}

  /** Set once by A2aRelayService, which this class cannot take in its constructor (a cycle). */
  attach(publisher: PublisherRelay): void {
    this.publisher = publisher;
  }

  /**
   * MK16, MK23: a suspended installation (−31009) or a licensed one without a valid licence
   * (−31008) is refused on the installer's side, audited there before the answer.
   */
  async refusal(call: A2aCall, request: JsonRpcMessage): Promise<JsonRpcMessage | undefined> {
    const installed = call.route.target.installation;
    if (!installed) {
      return undefined;
    }
    if (installed.status !== 'ACTIVE') {
      return this.refuse(
        call,
        request,
        REFUSALS.installationSuspended,
        `the publisher of ${a2aLabel(call)} has suspended this installation`,
      );
    }
    if (!installed.licensed) {
      return undefined;
    }
    const { check, token } = await this.licences.newest(installed);
    if (!check.valid) {
      return this.refuse(
        call,
        request,
        REFUSALS.licenceInvalid,
        `${a2aLabel(call)} needs a valid licence: ${check.reason}`,
        { licenceReason: check.reason },
      );
    }
    call.licence = token;
    return undefined;
  }

  /** The publisher's answer as an upstream's HTTP answer, so A2aExchange judges it unchanged. */
  async send(
    call: A2aCall,
    message: JsonRpcMessage,
    signal: AbortSignal,
    /** payments.md PY21: the installer side's judged payment crosses to be sold (PY3). */
    payment?: { header: string; value: string },
  ): Promise<Dispatcher.ResponseData> {
    const installed = call.route.target.installation!;
    const headers: Record<string, string> = {};
    for (const name of CROSSING_HEADERS) {
      const value = call.headers[name];
      if (typeof value === 'string') {
        headers[name] = value;
      }
    }
    if (payment) {
      headers[payment.header] = payment.value;
    }
    let answer: A2aAnswer;
    try {
      answer = await this.publisher!(
        {
          tenantId: installed.publisherTenantId,
          agentId: installed.id,
          correlationId: call.correlationId,
          headers,
          signal,
          installation: { ...(call.licence ? { licence: call.licence } : {}) },
        },
        installed.targetId,
        message,
      );
    } catch {
      // MK9: why the publisher's side refused is the publisher's; the installer learns only this.
      throw new A2aUpstreamFailure(502, `${a2aLabel(call)} is not available from its publisher`);
    }
    if (answer.kind === 'raw') {
      // D60: a payee's 402 crosses as it was sent; the installer's side hands it on.
      return rawResponse(answer.status, answer.body, answer.headers);
    }
    return answer.kind === 'json'
      ? jsonResponse(answer.status, answer.body, x402AnswerHeaders(answer.headers ?? {}))
      : streamResponse(answer, {}, signal);
  }

  private async refuse(
    call: A2aCall,
    request: JsonRpcMessage,
    refusal: Refusal,
    reason: string,
    details: Record<string, unknown> = {},
  ): Promise<JsonRpcMessage> {
    const { decisionId, audited } = this.pipeline.refusing(a2aHopOf(call, 'REQUEST', request), {
      type: 'COMMUNICATION_AUDIT',
      action: 'BLOCK',
      reason,
      details: {
        agpCode: refusal.agpCode,
        installationId: call.route.target.installation!.id,
        ...details,
      },
    });
    await audited;
    return rpcRefusal(
      request.id ?? null,
      refusal,
      { reasons: [reason], decisionId, correlationId: call.correlationId },
      reason,
    );
  }
}
