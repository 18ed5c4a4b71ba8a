import { randomUUID } from 'node:crypto';

import OpenAI from 'openai';

import {
  A2AClientFactory,
  AgentClient,
  ApiError,
  TaskStateName,
  runWithCorrelationId,
} from '@agp/agent-sdk';
import {
  A2aTestAgent,
  OpenAiTestProvider,
  startA2aTestAgent,
  startOpenAiTestProvider,
} from '@agp/testing';

import { A2aWorld, userMessage } from './a2a/a2a-world';
import {
  SdkAgent,
  countingClient,
  registerAgent,
  subscribeToLlmGateway,
} from './agent-sdk/sdk-world';
import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld } from './mcp/mcp-world';

/** A request the test agent answers only once released (or cancelled): it stays `working`. */
function held(text: string): ReturnType<typeof userMessage> {
  const request = userMessage(text);
  request.configuration = {
    acceptedOutputModes: [],
    taskPushNotificationConfig: undefined,
    returnImmediately: true,
  };
  return request;
}

/**
 * The client library's traffic clients against the running platform in both of D2's shapes: the
 * A2A client factory and `tasks/get` polling through `/relay/a2a` to an agent built on the official
 * A2A SDK, the D21 card refresh, and model calls through `/relay/llm` to an OpenAI-compatible
 * provider, whole and streamed, with the provider's faults retried as the specification says.
 */
describe.each<PlatformMode>(['services', 'embedded'])('agent-sdk traffic (%s)', (mode) => {
  let platform: McpPlatform;
  let target: A2aTestAgent;
  let provider: OpenAiTestProvider;
  let world: McpWorld;
  let a2a: A2aWorld;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    target = await startA2aTestAgent();
    provider = await startOpenAiTestProvider();
    world = await McpWorld.create(platform);
    a2a = new A2aWorld(world);
  });

  afterAll(async () => {
    await target?.close();
    await provider?.close();
    await platform?.close();
  });

  /** A calling agent of the SDK subscribed to a fresh registry entry for the test agent. */
  async function callerAndTarget(): Promise<{ caller: SdkAgent; targetId: string }> {
    const entry = await a2a.target(target.cardUrl);
    const caller = await registerAgent(world);
    await a2a.subscribe(caller.id, entry.id);
    return { caller, targetId: entry.id };
  }

  function openAi(client: AgentClient, gatewayId: string): OpenAI {
    const llm = client.llm(gatewayId);
    // The library's fetch carries the agent's token and retries; the OpenAI SDK's own are off.
    return new OpenAI({ baseURL: llm.baseUrl, apiKey: 'unused', fetch: llm.fetch, maxRetries: 0 });
  }

  it('should send a message through the relay and poll the task with tasks/get from working to completed', async () => {
    const { caller, targetId } = await callerAndTarget();
    const marker = randomUUID();
    const sut = new A2AClientFactory(new AgentClient(caller.config));
    const client = await sut.create(targetId);
    const started = (await client.sendMessage(held(`wait ${marker}`))) as { id: string };
    const seen: TaskStateName[] = [];

    const task = await sut.waitForTask(client, started.id, {
      intervalMs: 50,
      onState: (state) => {
        seen.push(state);
        if (seen.length === 2) {
          target.release();
        }
      },
    });

    expect(seen.slice(0, 2)).toEqual(['working', 'working']);
    expect(seen.at(-1)).toBe('completed');
    expect(JSON.stringify(task.artifacts)).toContain(`echo: wait ${marker}`);
    expect(target.received.filter((m) => m.text.includes(marker))).toHaveLength(1);
  });

  it('should stop polling at the terminal state canceled when the task is cancelled', async () => {
    const { caller, targetId } = await callerAndTarget();
    const sut = new A2AClientFactory(new AgentClient(caller.config));
    const client = await sut.create(targetId);
    const started = (await client.sendMessage(held('cancel-me now'))) as { id: string };
    const seen: TaskStateName[] = [];

    const polled = sut.waitForTask(client, started.id, {
      intervalMs: 50,
      onState: (state) => {
        seen.push(state);
        if (seen.length === 1) {
          void client.cancelTask({ tenant: '', id: started.id, metadata: undefined });
        }
      },
    });

    expect((await polled).status?.state).toBeDefined();
    expect(seen[0]).toBe('working');
    expect(seen.at(-1)).toBe('canceled');
  });

  it('should forward the correlation id of the request being served to the called agent', async () => {
    const { caller, targetId } = await callerAndTarget();
    const correlationId = randomUUID();
    const sut = new A2AClientFactory(new AgentClient(caller.config));

    await runWithCorrelationId(correlationId, async () => {
      const client = await sut.create(targetId);
      await client.sendMessage(userMessage(`traced ${correlationId}`));
    });

    const trace = await world.trace(correlationId, (items) =>
      items.some((item) => item.protocol === 'JSONRPC'),
    );
    expect(trace.every((item) => item.correlationId === correlationId)).toBe(true);
  });

  it('should answer unchanged, then updated with the changed fields, when an agent refreshes its card', async () => {
    const self = await registerAgent(world);
    const other = await registerAgent(world);
    await world.ok('PATCH', `/relay/v1/agents/${self.id}`, { agentCardUrl: target.cardUrl });
    const sut = new AgentClient(self.config);
    const original = target.card;

    try {
      const first = await sut.refreshAgentCard();
      const unchanged = await sut.refreshAgentCard();
      target.card = { ...original, description: `now ${randomUUID()}`, version: '2.0.0' };
      const updated = await sut.refreshAgentCard();
      const foreign = await new AgentClient(other.config)
        .refreshAgentCard(self.id)
        .catch((e: unknown) => e);

      expect(first.status).toBe('updated');
      expect(unchanged).toEqual({ status: 'unchanged', changedFields: [] });
      expect(updated).toEqual({ status: 'updated', changedFields: ['description', 'version'] });
      expect(foreign).toBeInstanceOf(ApiError);
      expect(foreign).toMatchObject({ statusCode: 403 });
    } finally {
      target.card = original;
    }
  });

  it('should let a service account refresh a card only when it holds REGISTRY:WRITE', async () => {
    const { targetId } = await callerAndTarget();
    const refresh = async (permission: 'READ' | 'WRITE'): Promise<number> => {
      const account = await world.ok<{ id: string; clientSecret: string }>(
        'POST',
        '/tenant-auth/v1/service-accounts',
        {
          name: `ops-${randomUUID().slice(0, 8)}`,
          permissions: [{ entity: 'REGISTRY', permission }],
        },
      );
      const token = await McpWorld.token(platform.baseUrl, {
        grant_type: 'client_credentials',
        client_id: account.id,
        client_secret: account.clientSecret,
        scope: 'svc:api',
      });
      const response = await fetch(
        `${platform.baseUrl}/relay/v1/agents/${targetId}/agent-card/refresh`,
        { method: 'POST', headers: { authorization: `Bearer ${token}` } },
      );
      return response.status;
    };

    expect([await refresh('READ'), await refresh('WRITE')]).toEqual([403, 200]);
  });

  it('should call the model through the LLM gateway with the agent token, whole and streamed', async () => {
    const agent = await registerAgent(world);
    const gatewayId = await subscribeToLlmGateway(world, agent.id, provider.baseUrl);
    const { client, tokenRequests } = countingClient(agent.config);
    const sut = openAi(client, gatewayId);
    const marker = randomUUID();
    const before = provider.calls.length;

    const whole = await sut.chat.completions.create({
      model: 'test-model',
      messages: [{ role: 'user', content: `whole ${marker}` }],
    });
    const stream = await sut.chat.completions.create({
      model: 'test-model',
      messages: [{ role: 'user', content: `streamed ${marker}` }],
      stream: true,
    });
    let streamed = '';
    let chunks = 0;
    for await (const chunk of stream) {
      streamed += chunk.choices[0]?.delta?.content ?? '';
      chunks += 1;
    }

    expect(whole.choices[0]?.message.content).toBe(`Echo: whole ${marker}`);
    expect(streamed).toBe(`Echo: streamed ${marker}`);
    expect(chunks).toBeGreaterThan(1);
    expect(tokenRequests).toEqual({ 'svc:api': 0, 'mcp:call': 1 });
    const calls = provider.calls.slice(before);
    expect(calls.map((c) => c.headers.authorization)).toEqual([
      'Bearer sk-provider-key',
      'Bearer sk-provider-key',
    ]);
  });

  it('should retry a model call with backoff when the provider fails and succeed once it recovers', async () => {
    const agent = await registerAgent(world);
    const gatewayId = await subscribeToLlmGateway(world, agent.id, provider.baseUrl);
    const sut = openAi(new AgentClient(agent.config), gatewayId);
    const marker = randomUUID();
    const before = provider.calls.length;
    provider.behave({ kind: 'status', status: 503, times: 2 });

    const completion = await sut.chat.completions.create({
      model: 'test-model',
      messages: [{ role: 'user', content: marker }],
    });

    expect(completion.choices[0]?.message.content).toBe(`Echo: ${marker}`);
    expect(provider.calls.slice(before).map((c) => c.body.messages)).toHaveLength(3);
  });

  it('should give up after the maximum of retries with the relay’s 502 when the provider keeps failing', async () => {
    const agent = await registerAgent(world);
    const gatewayId = await subscribeToLlmGateway(world, agent.id, provider.baseUrl);
    const sut = openAi(new AgentClient({ ...agent.config, maxRetries: 2 }), gatewayId);
    const before = provider.calls.length;
    provider.behave({ kind: 'status', status: 503, times: 10 });

    try {
      const error = await sut.chat.completions
        .create({ model: 'test-model', messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e);

      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      expect(provider.calls.length - before).toBe(3);
    } finally {
      provider.behave({ kind: 'answer' });
    }
  });
});
