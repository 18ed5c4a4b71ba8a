import { PaidCall } from './paid-call';
import { JudgedPayment, PaymentCall, X402Payments } from './x402-payments';

/** What a PaidCall asked of its payments, in order; `attempted` fails while `failing` is set. */
class RecordedPayments {
  readonly asked: string[] = [];
  failing = false;

  attempted(): Promise<void> {
    this.asked.push('attempted');
    return this.failing ? Promise.reject(new Error('outbox unavailable')) : Promise.resolve();
  }

  abandoned(_call: PaymentCall, _judged: JudgedPayment, reason: string): Promise<void> {
    this.asked.push(`abandoned:${reason}`);
    return Promise.resolve();
  }
}

/** payments.md PY10, PY26: the attempt recorded once; a payment never sent is ended. */
describe(PaidCall.name, () => {
  const call = { tenantId: 't' } as unknown as PaymentCall;
  const judged = { kind: 'judged' } as unknown as JudgedPayment;

  function paidCall(): { sut: PaidCall; payments: RecordedPayments } {
    const payments = new RecordedPayments();
    return { sut: new PaidCall(payments as unknown as X402Payments, call, judged), payments };
  }

  it('should record the attempt once however often the request is about to go out', async () => {
    const { sut, payments } = paidCall();

    await sut.sending();
    await sut.sending();
    await sut.unsent('answered by the bridge');

    expect(payments.asked).toEqual(['attempted']);
  });

  it('should end the payment (its reservation given back) when recording its attempt failed', async () => {
    const { sut, payments } = paidCall();
    payments.failing = true;

    await expect(sut.sending()).rejects.toThrow('outbox unavailable');
    await sut.unsent('the request never went out');

    expect(payments.asked).toEqual(['attempted', 'abandoned:invalid']);
  });
});
