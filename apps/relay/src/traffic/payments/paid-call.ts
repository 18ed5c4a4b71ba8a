import { JudgedPayment, PaymentCall, X402Payments } from './x402-payments';
import { paymentRequiredOf, x402AnswerHeaders } from './x402-messages';

type Headers = Record<string, string | string[] | undefined>;

/**
 * One call's x402 side (D60, payments.md PY2, PY3, PY13): the judged payment it forwards, if any,
 * and what the payee's answer says about payment. Every relay path drives it the same way.
 */
export class PaidCall {
  /** PY26: whether the payment went out with a request, or the call ended without it. */
  private state: 'judged' | 'sent' | 'ended' = 'judged';

  constructor(
    private readonly payments: X402Payments,
    readonly call: PaymentCall,
    readonly forwarded?: JudgedPayment,
  ) {}

  /**
   * PY10: X402_PAYMENT_ATTEMPT, durable before the payee can act on the payment; recorded once,
   * when the request that carries it is about to go out.
   */
  async sending(): Promise<void> {
    if (this.forwarded && this.state === 'judged') {
      this.state = 'sent';
      try {
        await this.payments.attempted(this.call, this.forwarded);
      } catch (error) {
        // Not recorded, so not sent: `unsent` still gives the reservation back and ends it.
        this.state = 'judged';
        throw error;
      }
    }
  }

  /**
   * PY26: a call answered without its payment going out (a revision bridge answered it itself):
   * its reservation is given back now, and the payment ends rejected rather than attempted.
   */
  async unsent(why: string): Promise<void> {
    if (this.forwarded && this.state === 'judged') {
      this.state = 'ended';
      await this.payments.abandoned(this.call, this.forwarded, 'invalid', why);
    }
  }

  /** PY3: the payment's own header, only once the payment was judged. */
  upstreamHeader(): { payment?: { header: string; value: string } } {
    const attempt = this.forwarded?.attempt;
    return attempt ? { payment: { header: attempt.header, value: attempt.value } } : {};
  }

  /**
   * An answer other than a 402 (see `required`): a forwarded payment's settlement recorded, and
   * the x402 headers to hand back beside the body.
   */
  async answered(status: number, headers: Headers): Promise<Record<string, string>> {
    if (status === 402) {
      return {};
    }
    if (this.forwarded) {
      await this.payments.settled(this.call, this.forwarded, status, headers);
    }
    return x402AnswerHeaders(headers);
  }

  /**
   * PY2: a 402 carrying x402 requirements (v2 header or v1 body): recorded, and the headers it goes
   * back to the agent with; undefined when it carries none (the path's upstream fault).
   */
  async required(headers: Headers, body: string): Promise<Record<string, string> | undefined> {
    const required = paymentRequiredOf(headers, body);
    if (!required) {
      return undefined;
    }
    await this.payments.required(this.call, required, this.forwarded);
    const type = headers['content-type'];
    return {
      ...(typeof type === 'string' ? { 'content-type': type } : {}),
      ...x402AnswerHeaders(headers),
    };
  }

  /** PY13: a forwarded payment whose payee never answered is not known to have settled. */
  async unanswered(why: string): Promise<void> {
    if (this.forwarded) {
      await this.payments.unsettled(this.call, this.forwarded, `the payee did not answer: ${why}`);
    }
  }
}
