import { randomUUID } from 'node:crypto';

import { A2aTestAgent, startA2aTestAgent } from '@agp/testing';
import { decodePaymentResponseHeader } from '@x402/core/http';

import { MarketTenant, sendMessage } from './marketplace/marketplace-world';
import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';
import { LocalFacilitator } from './x402/local-facilitator';
import { NETWORK } from './x402/paid-agent';
import { TestWallet, expectNoPayload, payingFetch } from './x402/x402-payer';

/** The publisher's wallet. */
const PAYEE = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';

/**
 * Issue 41 with the marketplace (payments.md PY20–PY22, marketplace.md MK5): an installed PER_CALL
 * listing is sold with x402. The publisher's side answers an unpaid call with the listing's
 * requirements; the installer's agent pays with the official `@x402/fetch`; the payment is judged
 * on the installer's side (policies, budgets) and on the publisher's, verified and settled through
 * the platform's facilitator, and each tenant's trail records its side.
 */
describe.each<PlatformMode>(['embedded', 'services'])('x402 per-call listings (%s)', (mode) => {
  let platform: McpPlatform;
  let facilitator: LocalFacilitator;
  let agent: A2aTestAgent;
  let publisher: MarketTenant;
  let installer: MarketTenant;
  let wallet: () => TestWallet;

  beforeAll(async () => {
    const { generatePrivateKey, privateKeyToAccount } = await import('viem/accounts');
    wallet = () => privateKeyToAccount(generatePrivateKey());
    facilitator = new LocalFacilitator();
    await facilitator.start();
    platform = await startMcpPlatform(mode, { X402_FACILITATOR_URL: facilitator.url });
    agent = await startA2aTestAgent();
    publisher = new MarketTenant(await McpWorld.create(platform));
    installer = new MarketTenant(await McpWorld.create(platform));
    await installer.world.ok('PATCH', '/relay/v1/traffic-settings', { contentCapture: true });
  }, 180_000);

  afterAll(async () => {
    await agent?.close();
    await platform?.close();
    await facilitator?.close();
  });

  /** `target`: a publisher's agent already given its policies; a fresh one otherwise. */
  async function installedPerCall(target?: {
    id: string;
  }): Promise<{ agentId: string; caller: TestAgent }> {
    target ??= await publisher.publicAgent(agent.cardUrl);
    const listing = await publisher.publish(target.id, {
      terms: { type: 'PER_CALL', priceUsd: 0.02, payTo: PAYEE, network: NETWORK },
    });
    const { agentId } = await installer.install(String(listing.id));
    return { agentId, caller: await installer.callerOf(agentId) };
  }

  function payingSend(caller: TestAgent, agentId: string, correlationId: string) {
    const { sent, fetch: pay } = payingFetch(caller.mcpToken, correlationId, wallet());
    return {
      sent,
      send: async (text: string) => {
        const response = await pay(installer.a2a.a2aUrl(agentId), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
          body: JSON.stringify(sendMessage(text)),
        });
        return {
          status: response.status,
          settlement: response.headers.get('payment-response'),
          body: (await response.json()) as Json,
        };
      },
    };
  }

  const typesOf = (trace: Json[]): string[] =>
    trace.map((e) => String(e.eventType)).filter((t) => t.startsWith('X402_'));

  it('should answer an unpaid call with the listing’s price, sell a paid one through both sides, and keep it out of the publisher’s spend', async () => {
    const { agentId, caller } = await installedPerCall();
    const unpaid = await installer.call(caller, agentId, 'for free?');
    const correlationId = randomUUID();
    const sut = payingSend(caller, agentId, correlationId);

    const answer = await sut.send('reconcile this ledger');

    expect(unpaid.status).toBe(402);
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).toContain('reconcile this ledger');
    const settlement = decodePaymentResponseHeader(answer.settlement!);
    expect(settlement).toMatchObject({ success: true, network: NETWORK });
    expect(facilitator.settled).toContainEqual(
      expect.objectContaining({ transaction: settlement.transaction, amount: '20000' }),
    );
    const installerTrace = await installer.world.trace(correlationId, (items) =>
      items.some((e) => e.eventType === 'X402_PAYMENT_SUCCESS'),
    );
    expect(typesOf(installerTrace)).toEqual(
      expect.arrayContaining([
        'X402_PAYMENT_REQUIRED',
        'X402_PAYMENT_ATTEMPT',
        'X402_PAYMENT_SUCCESS',
      ]),
    );
    expect(installerTrace.find((e) => e.eventType === 'X402_PAYMENT_SUCCESS')).toMatchObject({
      actor: expect.objectContaining({ id: caller.id }),
      sink: expect.objectContaining({ id: agentId }),
      details: expect.objectContaining({
        payment: expect.objectContaining({ amountUsd: '0.02', payTo: PAYEE }),
      }),
    });
    const publisherTrace = await publisher.world.trace(correlationId, (items) =>
      items.some((e) => e.eventType === 'X402_PAYMENT_SUCCESS'),
    );
    expect(typesOf(publisherTrace)).toEqual(
      expect.arrayContaining([
        'X402_PAYMENT_REQUIRED',
        'X402_PAYMENT_ATTEMPT',
        'X402_PAYMENT_SUCCESS',
      ]),
    );
    // MK18: the installer's agent never appears on the publisher's side.
    expect(JSON.stringify(publisherTrace)).not.toContain(caller.id);
    const installerSpend = await installer.world.ok<Json>('GET', '/relay/v1/spend?kind=PAYMENT');
    const publisherSpend = await publisher.world.ok<Json>('GET', '/relay/v1/spend?kind=PAYMENT');
    expect(installerSpend.totals).toMatchObject({ paymentsUsd: '0.02', payments: 1 });
    expect(publisherSpend.totals).toMatchObject({ payments: 0 });
    expectNoPayload([installerTrace, publisherTrace], sut.sent);
  });

  it('should refuse a paid call the installer’s policy blocks on input.payment before the publisher sells it', async () => {
    const { agentId, caller } = await installedPerCall();
    await installer.world.bindToAgent(
      caller.id,
      `package x402.market
import rego.v1
decision := {"action": "BLOCK", "reasons": ["no paid listings"]} if {
  input.payment.amount > 0.01
}`,
    );
    const settledBefore = facilitator.settled.length;
    const correlationId = randomUUID();

    const answer = await payingSend(caller, agentId, correlationId).send('pay for this');

    expect(answer.body).toMatchObject({
      error: { code: -31007, data: { agpCode: 'payment_refused', reasons: ['no paid listings'] } },
    });
    expect(facilitator.settled.length).toBe(settledBefore);
    const trace = await installer.world.trace(correlationId, (items) =>
      items.some((e) => e.eventType === 'X402_PAYMENT_REJECTED'),
    );
    expect(trace.find((e) => e.eventType === 'X402_PAYMENT_REJECTED')!.details).toMatchObject({
      reason: 'policy',
      payment: { amountUsd: '0.02' },
    });
  });

  it('should let the publisher’s policy on input.payment refuse a sale, which the installer records unsettled', async () => {
    const target = await publisher.publicAgent(agent.cardUrl);
    await publisher.world.bindToAgent(
      target.id,
      `package x402.seller
import rego.v1
decision := {"action": "BLOCK", "reasons": ["not sold on this network"]} if {
  input.payment.network == "eip155:84532"
}`,
    );
    const { agentId, caller } = await installedPerCall(target);
    const settledBefore = facilitator.settled.length;
    const correlationId = randomUUID();

    const answer = await payingSend(caller, agentId, correlationId).send('buy one');

    expect(answer.body).toMatchObject({ error: { code: -31007 } });
    expect(facilitator.settled.length).toBe(settledBefore);
    const publisherTrace = await publisher.world.trace(correlationId, (items) =>
      items.some((e) => e.eventType === 'X402_PAYMENT_REJECTED'),
    );
    expect(
      publisherTrace.find((e) => e.eventType === 'X402_PAYMENT_REJECTED')!.details,
    ).toMatchObject({ reason: 'policy' });
    const installerTrace = await installer.world.trace(correlationId, (items) =>
      items.some((e) => e.eventType === 'X402_PAYMENT_REJECTED'),
    );
    expect(
      installerTrace.find((e) => e.eventType === 'X402_PAYMENT_REJECTED')!.details,
    ).toMatchObject({ reason: 'payee' });
  });

  it('should not settle a paid call whose answer the publisher’s policy blocks (PY22)', async () => {
    const target = await publisher.publicAgent(agent.cardUrl);
    await publisher.world.bindToAgent(
      target.id,
      `package x402.answers
import rego.v1
decision := {"action": "BLOCK", "reasons": ["answers withheld"]} if {
  input.direction == "RESPONSE"
}`,
    );
    const { agentId, caller } = await installedPerCall(target);
    const settledBefore = facilitator.settled.length;

    const answer = await payingSend(caller, agentId, randomUUID()).send('sell me the answer');

    expect(answer.body).toMatchObject({ error: { code: expect.any(Number) } });
    expect(answer.body).not.toHaveProperty('result');
    expect(answer.settlement).toBeNull();
    expect(facilitator.settled.length).toBe(settledBefore);
  });
});
