import { Injectable } from '@nestjs/common';

import { JsonRpcMessage, rpcRefusal } from '../mcp/json-rpc';
import { PerCallSales } from '../payments/per-call-sales';
import { JudgedPayment } from '../payments/x402-payments';
import { REFUSALS } from '../pipeline/refusal-codes';
import { A2aCall, paymentCallOf } from './a2a-call';
import { PerCallPrice } from './a2a-directory';
import { A2aAnswer } from './a2a-exchange';

/**
 * payments.md PY20–PY22 on A2A: the publisher's side of an installed PER_CALL listing answers an
 * unpaid call with the listing's x402 requirements, and a paid one is verified, forwarded to the
 * publisher's agent, and settled before its answer goes back with the settlement.
 */
@Injectable()
export class InstalledSales {
  constructor(private readonly sales: PerCallSales) {}

  /** PY20: the installer's call carries no payment: the listing's price, as a 402. */
  async offer(call: A2aCall, request: JsonRpcMessage, price: PerCallPrice): Promise<A2aAnswer> {
    try {
      return { kind: 'raw', ...(await this.sales.required(paymentCallOf(call), price)) };
    } catch (error) {
      // No facilitator, or it did not answer: the listing cannot be sold now (−31011).
      const why = this.sales.unreachable('offer', error);
      return { kind: 'json', status: 200, body: this.unsold(call, request, why) };
    }
  }

  /**
   * PY21: verified before the agent is reached, settled once it answered (as `@x402/express`
   * settles after the handler); a payment that does not settle withholds the answer (402).
   */
  async sell(
    call: A2aCall,
    request: JsonRpcMessage,
    price: PerCallPrice,
    judged: JudgedPayment,
    forward: () => Promise<A2aAnswer>,
  ): Promise<A2aAnswer> {
    const paying = paymentCallOf(call);
    const invalid = await this.sales.verify(paying, price, judged);
    if (invalid) {
      return { kind: 'raw', ...(await this.sales.required(paying, price, invalid)) };
    }
    const answer = await forward();
    if (answer.kind === 'stream') {
      // PY22: a stream's settlement could not go back on its opening through the installer's
      // side, so a streamed answer is not sold (nor given away): the call ends unsettled.
      answer.cancel();
      const why = 'a streamed answer of a PER_CALL listing cannot be sold';
      await this.sales.unsold(paying, judged, why);
      return { kind: 'json', status: 200, body: this.unsold(call, request, why) };
    }
    if (answer.kind !== 'json' || answer.status >= 400) {
      // PY22: the agent failed: nothing is settled.
      await this.sales.unsold(paying, judged, `the agent answered HTTP ${answer.status}`);
      return answer;
    }
    if (!isResult(answer.body)) {
      // PY22: the publisher's side refused (policy, review, schema) with a 200 JSON-RPC error:
      // nothing was sold, so nothing is settled.
      await this.sales.unsold(paying, judged, 'the publisher refused the call');
      return answer;
    }
    const settled = await this.sales.settle(paying, price, judged);
    if (typeof settled === 'string') {
      return { kind: 'raw', ...(await this.sales.required(paying, price, settled)) };
    }
    return { ...answer, headers: { ...answer.headers, ...settled } };
  }

  private unsold(call: A2aCall, request: JsonRpcMessage, why: string): JsonRpcMessage {
    return rpcRefusal(
      request.id,
      REFUSALS.upstreamFailed,
      { correlationId: call.correlationId },
      `this listing cannot be sold now: ${why}`,
    );
  }
}

/** Only a JSON-RPC `result` (no `error`) is an answer worth paying for. */
function isResult(body: unknown): boolean {
  const message = body as { result?: unknown; error?: unknown } | null | undefined;
  return (
    typeof message === 'object' && message !== null && !('error' in message) && 'result' in message
  );
}
