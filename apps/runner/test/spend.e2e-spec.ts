import { randomUUID } from 'node:crypto';

import OpenAI from 'openai';

import { SpendMeter } from '@agp/relay';
import { OpenAiTestProvider, eventually, startOpenAiTestProvider } from '@agp/testing';

import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';

/** What the test provider reports for every call: 1000 prompt tokens (400 cached) and 200 out. */
const USAGE = {
  prompt_tokens: 1000,
  completion_tokens: 200,
  total_tokens: 1200,
  prompt_tokens_details: { cached_tokens: 400 },
};
/** 600 × 2.5 + 400 × 1.25 + 200 × 10 = 4000 USD per million tokens: 0.004 a call. */
const PRICE = { inputPerMillion: '2.5', outputPerMillion: '10', cachedInputPerMillion: '1.25' };
const CALL_COST = '0.004';
/** 4000 bytes of prompt: the relay's estimate (SP7) is at least the 1000 tokens reported. */
const PROMPT = 'x'.repeat(4000);

/** The test's own exact decimal arithmetic (micro-micro-dollars), independent of the relay's. */
function pico(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole) * 10n ** 12n + BigInt(fraction.padEnd(12, '0'));
}

/**
 * Issue 41 § 2–4 (D48, D60): LLM costs from token counts (streamed included), budgets that warn
 * and refuse before a provider across two relay replicas, and the ledger beside x402 payments,
 * each figure checked against an independent sum of the audit trail.
 */
describe('Spend: prices, budgets and the ledger (services, two relay replicas)', () => {
  let platform: McpPlatform;
  let world: McpWorld;
  let upstream: OpenAiTestProvider;
  let gatewayId: string;
  let replica: string;

  beforeAll(async () => {
    platform = await startMcpPlatform('services');
    world = await McpWorld.create(platform);
    upstream = await startOpenAiTestProvider({ usage: () => USAGE });
    const provider = await world.ok<{ id: string }>('POST', '/relay/v1/llm-providers', {
      name: 'spend-provider',
      baseUrl: upstream.baseUrl,
    });
    const gateway = await world.ok<{ id: string }>('POST', '/relay/v1/llm-gateways', {
      name: 'spend-gateway',
      providers: [provider.id],
    });
    gatewayId = gateway.id;
    await world.ok('POST', '/relay/v1/model-prices', {
      model: 'test-model',
      currency: 'USD',
      ...PRICE,
    });
    replica = await platform.startRelayReplica!();
  });

  afterAll(async () => {
    await upstream?.close();
    await platform?.close();
  });

  async function subscribedAgent(): Promise<TestAgent> {
    const agent = await world.agent();
    await world.ok('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_LLM_GATEWAY',
      sourceId: agent.id,
      targetId: gatewayId,
    });
    return agent;
  }

  function client(agent: TestAgent, base = platform.baseUrl, correlationId = randomUUID()): OpenAI {
    return new OpenAI({
      baseURL: `${base}/relay/llm/${gatewayId}/v1`,
      apiKey: agent.mcpToken,
      maxRetries: 0,
      defaultHeaders: { 'x-correlation-id': correlationId },
    });
  }

  const request = {
    model: 'test-model',
    max_tokens: 200,
    messages: [{ role: 'user' as const, content: PROMPT }],
  };

  /** Every LLM_GATEWAY_CALL of an agent in the audit trail, once there are `count`. */
  async function callEvents(agentId: string, count: number): Promise<Json[]> {
    return eventually(async () => {
      const answer = await world.ok<{ items: Json[] }>(
        'GET',
        `/audit/v1/events?eventType=LLM_GATEWAY_CALL&actorId=${agentId}&pageSize=100`,
      );
      expect(answer.items).toHaveLength(count);
      return answer.items;
    });
  }

  function costSum(events: Json[]): bigint {
    return events.reduce((sum, e) => {
      const cost = (e.details as Json).costUsd;
      return sum + pico(typeof cost === 'string' ? cost : '0');
    }, 0n);
  }

  async function spendOf(agentId: string, groupBy = 'model'): Promise<Json> {
    return world.ok<Json>('GET', `/relay/v1/spend?agentId=${agentId}&groupBy=${groupBy}`);
  }

  it('should refuse prices and budgets that are not whole, naming every bad field', async () => {
    const agent = await world.agent();
    const price = await world.api<Json>('POST', '/relay/v1/model-prices', {
      model: 'other',
      currency: 'EUR',
      inputPerMillion: 2.5,
      outputPerMillion: '0.1234567',
    });
    const twice = await world.api('POST', '/relay/v1/model-prices', {
      model: 'test-model',
      currency: 'USD',
      ...PRICE,
    });
    const budgets = await Promise.all(
      [
        { scope: 'TENANT', targetId: agent.id, period: 'DAY', unit: 'USD', hardLimit: '1' },
        { scope: 'AGENT', targetId: randomUUID(), period: 'DAY', unit: 'USD', hardLimit: '1' },
        { scope: 'AGENT', targetId: agent.id, period: 'WEEK', unit: 'USD' },
        {
          scope: 'AGENT',
          targetId: agent.id,
          period: 'DAY',
          unit: 'TOKENS',
          softLimit: '2',
          hardLimit: '1.5',
        },
      ].map((body) => world.api<Json>('POST', '/relay/v1/budgets', body)),
    );

    expect(price.status).toBe(400);
    const fields = (answer: { body: Json }): string[] =>
      ((answer.body.errors ?? []) as Json[]).map((e) => String(e.field));
    expect([...new Set(fields(price))].sort()).toEqual([
      'currency',
      'inputPerMillion',
      'outputPerMillion',
    ]);
    expect(twice.status).toBe(409);
    expect(budgets.map((b) => b.status)).toEqual([400, 400, 400, 400]);
    expect(fields(budgets[0])).toEqual(['targetId']);
    expect(fields(budgets[1])).toEqual(['targetId']);
    expect(fields(budgets[2])).toEqual(['period']);
    expect(fields(budgets[3])).toEqual(['hardLimit', 'softLimit']);
  });

  it('should price a whole and a streamed call exactly, cached tokens at their own price, in the trail and the ledger alike', async () => {
    const agent = await subscribedAgent();
    const whole = await client(agent).chat.completions.create(request);
    const stream = await client(agent).chat.completions.create({
      ...request,
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      usage = chunk.usage ?? usage;
    }

    const events = await callEvents(agent.id, 2);
    const spend = await spendOf(agent.id);

    expect(whole.usage?.prompt_tokens_details?.cached_tokens).toBe(400);
    expect(usage?.prompt_tokens_details?.cached_tokens).toBe(400);
    const byStreamed = Object.fromEntries(
      events.map((e) => [String((e.details as Json).streamed), e.details as Json]),
    );
    for (const details of [byStreamed.true, byStreamed.false]) {
      expect(details).toEqual(
        expect.objectContaining({
          costUsd: CALL_COST,
          pricedModel: 'test-model',
          cachedTokens: 400,
        }),
      );
    }
    expect(spend.totals).toEqual(
      expect.objectContaining({
        llmUsd: '0.008',
        amountUsd: '0.008',
        llmCalls: 2,
        cachedTokens: 800,
        totalTokens: 2400,
      }),
    );
    expect(pico(String((spend.totals as Json).llmUsd))).toBe(costSum(events));
    expect(spend.groups).toEqual([expect.objectContaining({ key: { model: 'test-model' } })]);
  });

  it('should let 32 concurrent callers on two replicas overshoot a hard limit by at most one call, refusing the rest before the provider with the budget named', async () => {
    const agent = await subscribedAgent();
    const hardLimit = '0.041';
    const budget = await world.ok<{ id: string }>('POST', '/relay/v1/budgets', {
      scope: 'AGENT',
      targetId: agent.id,
      period: 'DAY',
      unit: 'USD',
      hardLimit,
    });
    const before = upstream.calls.length;

    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        client(agent, i % 2 === 0 ? platform.baseUrl : replica)
          .chat.completions.create(request)
          .then(() => 'OK' as const)
          .catch((error: unknown) => error as InstanceType<typeof OpenAI.APIError>),
      ),
    );

    const succeeded = answers.filter((a) => a === 'OK').length;
    const refused = answers.filter((a): a is InstanceType<typeof OpenAI.APIError> => a !== 'OK');
    expect(refused.length).toBeGreaterThan(0);
    for (const refusal of refused) {
      expect(refusal.status).toBe(429);
      expect(refusal.code).toBe('budget_exceeded');
      expect((refusal.error as Json).agpCode).toBe('budget_exceeded');
      expect(((refusal.error as Json).budget as Json).id).toBe(budget.id);
    }
    // Refused before the provider: it saw exactly the calls that succeeded.
    expect(upstream.calls.length - before).toBe(succeeded);
    const events = await callEvents(agent.id, succeeded);
    const spent = costSum(events);
    expect(spent).toBe(BigInt(succeeded) * pico(CALL_COST));
    expect(spent).toBeLessThanOrEqual(pico(hardLimit) + pico(CALL_COST));
    expect(spent).toBeGreaterThanOrEqual(pico(hardLimit) - 2n * pico(CALL_COST));
    const spend = await spendOf(agent.id);
    expect(pico(String((spend.totals as Json).llmUsd))).toBe(spent);
    const read = await world.ok<Json>('GET', `/relay/v1/budgets/${budget.id}`);
    expect(pico(String(read.used))).toBe(spent);
    // Each refusal is audited before it is answered; the trail ingests asynchronously.
    const blocked = await eventually(async () => {
      const answer = await world.ok<{ items: Json[] }>(
        'GET',
        `/audit/v1/events?eventType=COMMUNICATION_AUDIT&actorId=${agent.id}&action=BLOCK&pageSize=100`,
      );
      expect(answer.items).toHaveLength(refused.length);
      return answer;
    });
    for (const event of blocked.items) {
      expect(((event.details as Json).budget as Json).id).toBe(budget.id);
      expect(String(event.summary)).toContain(`budget ${budget.id}`);
    }
  });

  it('should warn on the hop once the soft limit is near and raise the alert once in its window', async () => {
    const agent = await subscribedAgent();
    const budget = await world.ok<{ id: string }>('POST', '/relay/v1/budgets', {
      scope: 'AGENT',
      targetId: agent.id,
      period: 'MONTH',
      unit: 'USD',
      softLimit: '0.006',
    });
    const correlationIds = [randomUUID(), randomUUID(), randomUUID()];
    const warnings: Array<string | null> = [];
    for (const correlationId of correlationIds) {
      const { response } = await client(agent, platform.baseUrl, correlationId)
        .chat.completions.create(request)
        .withResponse();
      warnings.push(response.headers.get('x-agp-warning'));
    }

    const events = await callEvents(agent.id, 3);
    const second = await world.trace(correlationIds[1], (items) => items.length >= 3);

    expect(warnings[0]).toBeNull();
    expect(warnings[1]).toContain(`soft limit of budget ${budget.id}`);
    expect(warnings[2]).toContain(`soft limit of budget ${budget.id}`);
    const request2 = second.find(
      (e) => e.eventType === 'COMMUNICATION_AUDIT' && (e.details as Json).direction === 'REQUEST',
    );
    expect(request2?.action).toBe('WARN');
    const alerted = events.filter((e) => (e.details as Json).budgetAlerts !== undefined);
    expect(alerted).toHaveLength(1);
    expect(alerted[0].correlationId).toBe(correlationIds[1]);
    const alert = ((alerted[0].details as Json).budgetAlerts as Json[])[0];
    expect(alert).toEqual(expect.objectContaining({ id: budget.id, softLimit: '0.006' }));
    // SP9: `used` counts reservations still in flight, so the third call's, when it was already
    // reserved as the second settled (0.00452: its prompt and max_tokens priced), may be in it.
    expect(pico(String(alert.used))).toBeGreaterThanOrEqual(pico('0.008'));
    expect(pico(String(alert.used))).toBeLessThanOrEqual(pico('0.01252'));
    const alerts = await eventually(async () => {
      const answer = await world.ok<{ items: Json[] }>(
        'GET',
        `/audit/v1/monitors/alerts?detector=BUDGET_SOFT_LIMIT&subjectId=${agent.id}`,
      );
      expect(answer.items).toHaveLength(1);
      return answer.items;
    });
    expect(alerts[0]).toEqual(
      expect.objectContaining({
        detector: 'BUDGET_SOFT_LIMIT',
        // The alert's evidence carries the hop's `used`, in-flight reservations and all (SP9).
        evidence: expect.objectContaining({
          kind: 'BUDGET',
          budgetId: budget.id,
          used: alert.used,
        }),
      }),
    );
  });

  it('should hold payments to the same budgets through the seam x402 calls, and show them beside LLM costs in the ledger and its CSV', async () => {
    const meter = platform.relay!.get(SpendMeter);
    const agent = await subscribedAgent();
    await client(agent).chat.completions.create(request);
    await callEvents(agent.id, 1);
    const budget = await world.ok<{ id: string }>('POST', '/relay/v1/budgets', {
      scope: 'AGENT',
      targetId: agent.id,
      period: 'ROLLING_24H',
      unit: 'USD',
      hardLimit: '0.05',
    });
    const pay = async (amountUsd: string): Promise<string> => {
      const verdict = await meter.checkPayment(
        { tenantId: world.tenantId, agentId: agent.id },
        amountUsd,
      );
      if (verdict.kind === 'EXCEEDED') {
        return verdict.budget.id;
      }
      await meter.recordPayment(
        {
          id: randomUUID(),
          subject: { tenantId: world.tenantId, agentId: agent.id },
          payee: { type: 'MCP_SERVER', id: 'weather-server', label: 'Weather, paid' },
          payment: {
            amountUsd,
            amountAtomic: String(pico(amountUsd) / 10n ** 6n),
            asset: 'USDC',
            network: 'eip155:84532',
            payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
            scheme: 'exact',
            description: 'forecast',
          },
          correlationId: randomUUID(),
          eventId: randomUUID(),
        },
        verdict.reservation,
      );
      return 'PAID';
    };

    // SP17: a payment is checked with its amount. 0.004 of LLM, 0.03 paid; 0.02 would pass the
    // 0.05 limit and is refused; 0.016 reaches it exactly; nothing more fits.
    const outcomes = [
      await pay('0.03'),
      await pay('0.02'),
      await pay('0.016'),
      await pay('0.000001'),
    ];
    const byPayee = await spendOf(agent.id, 'payee');
    const csv = await world.api<string>('GET', `/relay/v1/spend/export?agentId=${agent.id}`);

    expect(outcomes).toEqual(['PAID', budget.id, 'PAID', budget.id]);
    expect(byPayee.totals).toEqual(
      expect.objectContaining({
        amountUsd: '0.05',
        llmUsd: CALL_COST,
        paymentsUsd: '0.046',
        payments: 2,
        llmCalls: 1,
      }),
    );
    expect(byPayee.groups).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          key: { payee: 'MCP_SERVER:weather-server' },
          payeeLabel: 'Weather, paid',
          paymentsUsd: '0.046',
        }),
        expect.objectContaining({ key: { payee: null }, llmUsd: CALL_COST }),
      ]),
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = csv.body.trim().split('\r\n');
    expect(rows).toHaveLength(4);
    expect(rows.filter((r) => r.includes(',PAYMENT,'))).toHaveLength(2);
    expect(rows.filter((r) => r.includes(',LLM,0.004,'))).toHaveLength(1);
    expect(rows[1] + rows[2] + rows[3]).toContain('"Weather, paid",USDC,eip155:84532');
  });
});
