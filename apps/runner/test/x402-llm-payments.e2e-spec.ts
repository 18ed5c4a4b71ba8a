import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';
import { decodePaymentResponseHeader } from '@x402/core/http';
import OpenAI from 'openai';

import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';
import { LocalFacilitator } from './x402/local-facilitator';
import { PaidLlmProvider, startPaidLlmProvider } from './x402/paid-llm-provider';
import { TestWallet, expectNoPayload, payingFetch } from './x402/x402-payer';

/** Holds every completion the paid provider answers for a person (D34). */
const HOLD_PAID_ANSWERS = `package llm.holdpaid

import rego.v1

decision := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": ["paid answers need a reviewer"]} if {
	input.direction == "RESPONSE"
	contains(lower(input.message.text), "a paid answer")
}
`;

/** The provider's wallet. */
const PAYEE = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';

/**
 * Issue 41 § 1 on the LLM path (payments.md PY16–PY18): an OpenAI-compatible provider paid with
 * x402 by the official `@x402/express` middleware, the official `openai` client paying through
 * `@x402/fetch` with a local wallet. The relay hands the provider's 402 to the agent, judges the
 * retry's payment, forwards it only to the provider that asked, and records each step.
 */
describe.each<PlatformMode>(['embedded', 'services'])(
  'x402 payments on the LLM path (%s)',
  (mode) => {
    let platform: McpPlatform;
    let facilitator: LocalFacilitator;
    let paid: PaidLlmProvider;
    let free: PaidLlmProvider;
    let world: McpWorld;
    let wallet: () => TestWallet;

    beforeAll(async () => {
      const { generatePrivateKey, privateKeyToAccount } = await import('viem/accounts');
      wallet = () => privateKeyToAccount(generatePrivateKey());
      platform = await startMcpPlatform(mode);
      facilitator = new LocalFacilitator();
      await facilitator.start();
      paid = await startPaidLlmProvider(facilitator.url, PAYEE);
      free = await startPaidLlmProvider(facilitator.url, PAYEE, false);
      world = await McpWorld.create(platform);
      // D40: content capture on, so the trail would show a payload if one leaked into a hop.
      await world.ok('PATCH', '/relay/v1/traffic-settings', { contentCapture: true });
    });

    afterAll(async () => {
      await paid?.close();
      await free?.close();
      await facilitator?.close();
      await platform?.close();
    });

    /** A gateway whose paid provider serves `paid-model` and whose free one `free-model`. */
    async function gatewayFor(agent: TestAgent): Promise<{ gatewayId: string; paidId: string }> {
      const provider = async (baseUrl: string, model: string): Promise<string> =>
        (
          await world.ok<{ id: string }>('POST', '/relay/v1/llm-providers', {
            name: `provider-${randomUUID().slice(0, 8)}`,
            baseUrl,
            models: [model],
          })
        ).id;
      const paidId = await provider(paid.baseUrl, 'paid-model');
      const freeId = await provider(free.baseUrl, 'free-model');
      const { id: gatewayId } = await world.ok<{ id: string }>('POST', '/relay/v1/llm-gateways', {
        name: `gateway-${randomUUID().slice(0, 8)}`,
        providers: [paidId, freeId],
      });
      await world.ok('POST', '/relay/v1/subscriptions', {
        kind: 'AGENT_TO_LLM_GATEWAY',
        sourceId: agent.id,
        targetId: gatewayId,
      });
      return { gatewayId, paidId };
    }

    /**
     * The agent's runtime: the official OpenAI client whose fetch is `@x402/fetch`'s, with a local
     * wallet; `retryAs` makes the paid retry ask for another model (a runtime that would move the
     * payment elsewhere). `sent` keeps each payment header it sent.
     */
    function payingClient(
      agent: TestAgent,
      gatewayId: string,
      correlationId: string,
      retryAs?: string,
    ) {
      const paying = payingFetch(
        agent.mcpToken,
        correlationId,
        wallet(),
        retryAs
          ? (body) => JSON.stringify({ ...(JSON.parse(body) as Json), model: retryAs })
          : undefined,
      );
      const sut = new OpenAI({
        baseURL: `${platform.baseUrl}/relay/llm/${gatewayId}/v1`,
        apiKey: agent.mcpToken,
        maxRetries: 0,
        fetch: paying.fetch,
      });
      return { sut, sent: paying.sent };
    }

    const typesOf = (trace: Json[]): string[] =>
      trace.map((e) => String(e.eventType)).filter((t) => t.startsWith('X402_'));

    it('should hand the provider’s 402 to the agent, forward its payment to that provider and record required, attempt and settled', async () => {
      const agent = await world.agent();
      const { gatewayId, paidId } = await gatewayFor(agent);
      const correlationId = randomUUID();
      const { sut, sent } = payingClient(agent, gatewayId, correlationId);

      const { data: completion, response } = await sut.chat.completions
        .create({ model: 'paid-model', messages: [{ role: 'user', content: 'hello' }] })
        .withResponse();

      expect(completion.choices[0].message.content).toBe('a paid answer');
      const settlement = decodePaymentResponseHeader(response.headers.get('payment-response')!);
      expect(settlement).toMatchObject({ success: true, network: 'eip155:84532' });
      expect(paid.paidRequests.map((r) => r.header)).toContain(sent[0]);
      const trace = await world.trace(
        correlationId,
        (items) =>
          items.some((e) => e.eventType === 'X402_PAYMENT_SUCCESS') &&
          items.some(
            (e) => e.eventType === 'LLM_GATEWAY_CALL' && (e.details as Json).outcome === 'SUCCESS',
          ),
      );
      expect(typesOf(trace)).toEqual(
        expect.arrayContaining([
          'X402_PAYMENT_REQUIRED',
          'X402_PAYMENT_ATTEMPT',
          'X402_PAYMENT_SUCCESS',
        ]),
      );
      const success = trace.find((e) => e.eventType === 'X402_PAYMENT_SUCCESS')!;
      expect(success).toMatchObject({
        actor: expect.objectContaining({ type: 'AGENT', id: agent.id }),
        sink: expect.objectContaining({ type: 'LLM_GATEWAY', id: gatewayId }),
        details: expect.objectContaining({
          transaction: settlement.transaction,
          payment: expect.objectContaining({
            amountUsd: '0.01',
            payTo: PAYEE,
            description: 'a paid completion',
          }),
        }),
      });
      const hop = trace.find(
        (e) => e.eventType === 'COMMUNICATION_AUDIT' && (e.details as Json).payment !== undefined,
      );
      expect((hop!.details as Json).payment).toMatchObject({ amountUsd: '0.01' });
      const calls = trace.filter((e) => e.eventType === 'LLM_GATEWAY_CALL');
      expect(calls.map((c) => (c.details as Json).httpStatus)).toEqual(
        expect.arrayContaining([402, 200]),
      );
      // PY16: the 402 and the paid answer came from the one provider that asked.
      expect(new Set(calls.map((c) => (c.details as Json).llmProviderId))).toEqual(
        new Set([paidId]),
      );
      // SP18: the payment is the gateway's spend too.
      const spend = await world.ok<Json>(
        'GET',
        `/relay/v1/spend?llmGatewayId=${gatewayId}&kind=PAYMENT`,
      );
      expect(spend.totals).toMatchObject({ paymentsUsd: '0.01', payments: 1 });
      expectNoPayload(trace, sent);
    });

    it('should refuse a paid retry that would go to another provider than the one that asked, before any provider sees it', async () => {
      const agent = await world.agent();
      const { gatewayId } = await gatewayFor(agent);
      const correlationId = randomUUID();
      const { sut, sent } = payingClient(agent, gatewayId, correlationId, 'free-model');
      const reached = free.paidRequests.length + paid.paidRequests.length;

      const refused = await sut.chat.completions
        .create({ model: 'paid-model', messages: [{ role: 'user', content: 'move it' }] })
        .catch((error: unknown) => error);

      expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect((refused as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
        code: 'payment_refused',
        agpCode: 'payment_refused',
      });
      expect(sent).toHaveLength(1);
      expect(free.paidRequests.length + paid.paidRequests.length).toBe(reached);
      const trace = await world.trace(correlationId, (items) =>
        items.some((e) => e.eventType === 'X402_PAYMENT_REJECTED'),
      );
      expect(typesOf(trace)).not.toContain('X402_PAYMENT_ATTEMPT');
      expect(trace.find((e) => e.eventType === 'X402_PAYMENT_REJECTED')!.details).toMatchObject({
        reason: 'invalid',
        reasonText: expect.stringContaining('does not serve the model free-model'),
      });
      expectNoPayload(trace, sent);
    });

    it('should refuse a payment over the gateway’s hard budget and one a policy blocks on input.payment before the provider', async () => {
      const agent = await world.agent();
      const { gatewayId } = await gatewayFor(agent);
      await world.ok('POST', '/relay/v1/budgets', {
        scope: 'LLM_GATEWAY',
        targetId: gatewayId,
        period: 'DAY',
        unit: 'USD',
        hardLimit: '0.005',
      });
      const overBudget = randomUUID();
      const budgeted = payingClient(agent, gatewayId, overBudget);
      const reached = paid.paidRequests.length;

      const refused = await budgeted.sut.chat.completions
        .create({ model: 'paid-model', messages: [{ role: 'user', content: 'too dear' }] })
        .catch((error: unknown) => error);

      expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
      expect((refused as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
        agpCode: 'budget_exceeded',
      });
      expect(paid.paidRequests.length).toBe(reached);
      const trace = await world.trace(overBudget, (items) =>
        items.some((e) => e.eventType === 'X402_PAYMENT_REJECTED'),
      );
      expect(trace.find((e) => e.eventType === 'X402_PAYMENT_REJECTED')!.details).toMatchObject({
        reason: 'budget',
        payment: { amountUsd: '0.01' },
      });

      const blocked = await world.agent();
      const other = await gatewayFor(blocked);
      await world.bindToAgent(
        blocked.id,
        `package x402.llm
import rego.v1
decision := {"action": "BLOCK", "reasons": ["no paid models"]} if {
  input.payment.amount >= 0.01
}`,
      );
      const byPolicy = randomUUID();
      const policed = payingClient(blocked, other.gatewayId, byPolicy);

      const blockedAnswer = await policed.sut.chat.completions
        .create({ model: 'paid-model', messages: [{ role: 'user', content: 'pay' }] })
        .catch((error: unknown) => error);

      expect((blockedAnswer as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
        agpCode: 'payment_refused',
        reasons: ['no paid models'],
      });
      expect(paid.paidRequests.length).toBe(reached);
      const policyTrace = await world.trace(byPolicy, (items) =>
        items.some((e) => e.eventType === 'X402_PAYMENT_REJECTED'),
      );
      expect(
        policyTrace.find((e) => e.eventType === 'X402_PAYMENT_REJECTED')!.details,
      ).toMatchObject({
        reason: 'policy',
      });
      expectNoPayload([trace, policyTrace], [...budgeted.sent, ...policed.sent]);
    });

    it('should carry the settlement on a paid stream’s opening', async () => {
      const agent = await world.agent();
      const { gatewayId } = await gatewayFor(agent);
      const correlationId = randomUUID();
      const { sut, sent } = payingClient(agent, gatewayId, correlationId);

      const { data: stream, response } = await sut.chat.completions
        .create({
          model: 'paid-model',
          messages: [{ role: 'user', content: 'stream it' }],
          stream: true,
          stream_options: { include_usage: true },
        })
        .withResponse();
      let text = '';
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta?.content ?? '';
      }

      expect(text).toBe('a paid answer');
      expect(decodePaymentResponseHeader(response.headers.get('payment-response')!)).toMatchObject({
        success: true,
      });
      const trace = await world.trace(correlationId, (items) =>
        items.some((e) => e.eventType === 'X402_PAYMENT_SUCCESS'),
      );
      expect(typesOf(trace)).toContain('X402_PAYMENT_ATTEMPT');
      expectNoPayload(trace, sent);
    });

    it('should release a paid call’s held answer to the resend that carries the same payment (PY27)', async () => {
      await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 1 });
      const agent = await world.agent();
      const { gatewayId } = await gatewayFor(agent);
      await world.bindToAgent(agent.id, HOLD_PAID_ANSWERS);
      const correlationId = randomUUID();
      const { sut, sent } = payingClient(agent, gatewayId, correlationId);
      const request = { model: 'paid-model', messages: [{ role: 'user', content: 'hold it' }] };
      const held = await sut.chat.completions
        .create(request as OpenAI.ChatCompletionCreateParamsNonStreaming)
        .catch((error: unknown) => error);
      const hitlRequestId = String(
        ((held as InstanceType<typeof OpenAI.APIError>).error as Json).hitlRequestId,
      );
      await world.ok('POST', `/relay/v1/hitl-requests/${hitlRequestId}/approve`, {}, 200);

      // The reviewer approved the paid call: its resend carries the request and the payment again.
      const resend = await fetch(`${platform.baseUrl}/relay/llm/${gatewayId}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${agent.mcpToken}`,
          'content-type': 'application/json',
          'x-correlation-id': correlationId,
          'x-agp-hitl-request-id': hitlRequestId,
          'payment-signature': sent[0],
        },
        body: JSON.stringify(request),
      });

      expect(held).toBeInstanceOf(OpenAI.ConflictError);
      expect(sent).toHaveLength(1);
      expect(resend.status).toBe(200);
      const body = (await resend.json()) as { choices: { message: { content: string } }[] };
      expect(body.choices[0].message.content).toBe('a paid answer');
    });

    // Last: it sets the tenant's review threshold, which every later paid call would meet.
    it('should hold a paid call above the review threshold for a person and forward it to the provider once approved', async () => {
      await world.ok('PATCH', '/relay/v1/traffic-settings', {
        hitlWaitSeconds: 30,
        paymentReviewThreshold: '0.005',
      });
      const agent = await world.agent();
      const { gatewayId } = await gatewayFor(agent);
      const correlationId = randomUUID();
      const { sut, sent } = payingClient(agent, gatewayId, correlationId);
      const reached = paid.paidRequests.length;

      const answering = sut.chat.completions
        .create({ model: 'paid-model', messages: [{ role: 'user', content: 'review me' }] })
        .withResponse();
      const held = await eventually(async () => {
        const page = await world.ok<{ items: { id: string; reasons: string[] }[] }>(
          'GET',
          `/relay/v1/hitl-requests?status=PENDING&agentId=${agent.id}`,
        );
        expect(page.items).toHaveLength(1);
        return page.items[0];
      });
      const reachedWhileHeld = paid.paidRequests.length;
      await world.ok('POST', `/relay/v1/hitl-requests/${held.id}/approve`, { note: 'ok' }, 200);
      const { data: completion, response } = await answering;

      expect(held.reasons.join(' ')).toMatch(
        /0\.01 USD .* above the review threshold of 0\.005 USD/,
      );
      expect(reachedWhileHeld).toBe(reached);
      expect(completion.choices[0].message.content).toBe('a paid answer');
      expect(decodePaymentResponseHeader(response.headers.get('payment-response')!)).toMatchObject({
        success: true,
      });
      const trace = await world.trace(correlationId, (items) =>
        items.some((e) => e.eventType === 'X402_PAYMENT_SUCCESS'),
      );
      expect(trace.some((e) => e.eventType === 'HITL')).toBe(true);
      expectNoPayload(trace, sent);
    });
  },
);
