import { randomUUID } from 'node:crypto';

import OpenAI from 'openai';

import { OpenAiTestProvider, startOpenAiTestProvider } from '@agp/testing';

import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';
import { HOLD_REFUND_ANSWERS, HOLD_TRANSFERS } from './llm/llm-policies';

/**
 * Issue 13 § 4 on the LLM path, with the official OpenAI SDK: a request held for human review and
 * released on the resend (D34, T22), and the rate limits (D36) answering 429 before a provider.
 */
describe.each<PlatformMode>(['services', 'embedded'])('LLM relay controls (%s)', (mode) => {
  let platform: McpPlatform;
  let world: McpWorld;
  let upstream: OpenAiTestProvider;
  let gatewayId: string;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    world = await McpWorld.create(platform);
    upstream = await startOpenAiTestProvider();
    const provider = await world.ok<{ id: string }>('POST', '/relay/v1/llm-providers', {
      name: 'controls-provider',
      baseUrl: upstream.baseUrl,
    });
    const gateway = await world.ok<{ id: string }>('POST', '/relay/v1/llm-gateways', {
      name: 'controls-gateway',
      providers: [provider.id],
    });
    gatewayId = gateway.id;
  });

  afterAll(async () => {
    await upstream?.close();
    await platform?.close();
  });

  async function subscribedAgent(policy?: string): Promise<TestAgent> {
    const agent = await world.agent();
    await world.ok('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_LLM_GATEWAY',
      sourceId: agent.id,
      targetId: gatewayId,
    });
    if (policy) {
      await world.bindToAgent(agent.id, policy);
    }
    return agent;
  }

  function client(agent: TestAgent, headers: Record<string, string> = {}): OpenAI {
    return new OpenAI({
      baseURL: `${platform.baseUrl}/relay/llm/${gatewayId}/v1`,
      apiKey: agent.mcpToken,
      maxRetries: 0,
      defaultHeaders: headers,
    });
  }

  function callsWith(marker: string): number {
    return upstream.calls.filter((c) => JSON.stringify(c.body).includes(marker)).length;
  }

  it('should hold a request for review with 409, send nothing upstream, then release it once on the approved resend', async () => {
    await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 1 });
    const agent = await subscribedAgent(HOLD_TRANSFERS);
    const marker = randomUUID();
    const request = {
      model: 'test-model',
      messages: [{ role: 'user' as const, content: `wire transfer ${marker}` }],
    };

    const held = await client(agent)
      .chat.completions.create(request)
      .catch((error: unknown) => error);
    // T19: D33's members travel in OpenAI's `error` object too, which the SDK keeps.
    const hitlRequestId = String(
      ((held as InstanceType<typeof OpenAI.APIError>).error as Json).hitlRequestId,
    );
    const callsWhileHeld = callsWith(marker);
    await world.ok('POST', `/relay/v1/hitl-requests/${hitlRequestId}/approve`, {}, 200);
    const resend = client(agent, { 'x-agp-hitl-request-id': hitlRequestId });
    const released = await resend.chat.completions.create(request);
    const twice = await resend.chat.completions.create(request).catch((error: unknown) => error);

    expect(held).toBeInstanceOf(OpenAI.ConflictError);
    expect((held as InstanceType<typeof OpenAI.APIError>).code).toBe('held_for_review');
    expect(callsWhileHeld).toBe(0);
    expect(released.choices[0].message.content).toBe(`Echo: wire transfer ${marker}`);
    expect(twice).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(callsWith(marker)).toBe(1);
  });

  it.each([false, true])(
    'should hold a completion for review before the agent sees it, then answer the resend from the hold without calling the provider again (streamed resend: %s)',
    async (isStreamedResend) => {
      await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 1 });
      const agent = await subscribedAgent(HOLD_REFUND_ANSWERS);
      const marker = randomUUID();
      const request = {
        model: 'test-model',
        messages: [{ role: 'user' as const, content: `refund ${marker}` }],
      };

      const held = await client(agent)
        .chat.completions.create(request)
        .catch((error: unknown) => error);
      const hitlRequestId = String(
        ((held as InstanceType<typeof OpenAI.APIError>).error as Json).hitlRequestId,
      );
      await world.ok('POST', `/relay/v1/hitl-requests/${hitlRequestId}/approve`, {}, 200);
      const resend = client(agent, { 'x-agp-hitl-request-id': hitlRequestId });
      let text = '';
      if (isStreamedResend) {
        const stream = await resend.chat.completions.create({ ...request, stream: true });
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta?.content ?? '';
        }
      } else {
        text = (await resend.chat.completions.create(request)).choices[0].message.content ?? '';
      }

      expect(held).toBeInstanceOf(OpenAI.ConflictError);
      expect(text).toBe(`Echo: refund ${marker}`);
      expect(callsWith(marker)).toBe(1);
    },
  );

  it('should answer 429 with Retry-After over the agent rate limit, before the provider', async () => {
    await world.ok('PATCH', '/relay/v1/traffic-settings', { rateLimits: { agentPerMinute: 2 } });
    try {
      const agent = await subscribedAgent();
      const marker = randomUUID();
      const ask = () =>
        client(agent)
          .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: marker }] })
          .catch((error: unknown) => error);

      const answers = [await ask(), await ask(), await ask()];

      expect(answers[2]).toBeInstanceOf(OpenAI.RateLimitError);
      expect(
        (answers[2] as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after'),
      ).toMatch(/^\d+$/);
      expect(callsWith(marker)).toBe(2);
    } finally {
      await world.ok('PATCH', '/relay/v1/traffic-settings', {
        rateLimits: { agentPerMinute: null },
      });
    }
  });
});
