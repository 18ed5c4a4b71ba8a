import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';

/** A local wallet, as `ExactEvmScheme` takes it. */
export type TestWallet = ConstructorParameters<typeof ExactEvmScheme>[0];

/**
 * An agent's runtime paying with the official `@x402/fetch` and a local wallet: its token and
 * correlation id on each request, `sent` keeping each payment header it sent, and `rewrite`
 * changing a paid retry's body (a runtime that would move the payment elsewhere).
 */
export function payingFetch(
  token: string,
  correlationId: string,
  wallet: TestWallet,
  rewrite?: (body: string) => string,
): { sent: string[]; fetch: typeof fetch } {
  const sent: string[] = [];
  const inner = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    headers.set('authorization', `Bearer ${token}`);
    headers.set('x-correlation-id', correlationId);
    const payment = headers.get('payment-signature');
    let body: string | undefined = request.method === 'GET' ? undefined : await request.text();
    if (payment) {
      sent.push(payment);
      body = body !== undefined && rewrite ? rewrite(body) : body;
    }
    return fetch(request.url, { method: request.method, headers, body, signal: request.signal });
  };
  const client = x402Client.fromConfig({
    schemes: [{ network: 'eip155:*', client: new ExactEvmScheme(wallet) }],
  });
  return { sent, fetch: wrapFetchWithPayment(inner, client) };
}

/** payments.md PY12: nothing recorded holds a payment header or its payload's signature. */
export function expectNoPayload(recorded: unknown, sent: string[]): void {
  const text = JSON.stringify(recorded);
  expect(sent.length).toBeGreaterThan(0);
  for (const header of sent) {
    expect(text).not.toContain(header);
    const payload = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as {
      payload: { signature: string };
    };
    expect(text).not.toContain(payload.payload.signature);
  }
}
