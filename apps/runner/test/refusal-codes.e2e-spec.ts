import { randomUUID } from 'node:crypto';

import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import OpenAI from 'openai';
import { REFUSAL_CODES } from '@agp/agent-sdk';
import { REFUSALS } from '@agp/contracts/enums';
import {
  McpTestServer,
  OpenAiTestProvider,
  connectMcpClient,
  eventually,
  refusalOf,
  startA2aTestAgent,
  startMcpTestServer,
  startOpenAiTestProvider,
} from '@agp/testing';

import { A2aWorld, userMessage } from './a2a/a2a-world';
import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';

/** D41's codes, written out here so a change of the relay's table cannot pass unnoticed. */
const CODES = {
  blocked_by_policy: -31001,
  policy_error: -31002,
  review_rejected: -31003,
  review_pending: -31004,
  kill_switch: -31005,
  rate_limited: -31029,
} as const;
type AgpCode = keyof typeof CODES;

/** One policy, one refusal per marker text, on the way in only (D33, D34, D22 fail closed). */
const REFUSING_POLICY = `package refusals

import rego.v1

decision := {"action": "BLOCK", "reasons": ["forbidden topic"]} if {
	input.direction == "REQUEST"
	contains(input.message.text, "forbidden topic")
}

decision := {"action": "HUMAN_REVIEW_REQUIRED", "reasons": ["needs a person"]} if {
	input.direction == "REQUEST"
	contains(input.message.text, "needs a person")
}

# Two values for one complete rule: the evaluation fails, and the tenant fails closed.
decision := {"action": "LOG"} if {
	input.direction == "REQUEST"
	contains(input.message.text, "breaks the policy")
}

decision := {"action": "WARN"} if {
	input.direction == "REQUEST"
	contains(input.message.text, "breaks the policy")
}
`;

/** The marker text that makes REFUSING_POLICY refuse as `code` says. */
const TEXT_FOR: Partial<Record<AgpCode, string>> = {
  blocked_by_policy: 'forbidden topic',
  policy_error: 'breaks the policy',
  review_pending: 'needs a person',
};

/** The A2A SDK client's error classes for the codes A2A gives meaning to (−32001 … −32009). */
const A2A_TASK_ERRORS = [
  'TaskNotFoundError',
  'TaskNotCancelableError',
  'PushNotificationNotSupportedError',
  'UnsupportedOperationError',
  'ContentTypeNotSupportedError',
  'InvalidAgentResponseError',
];

/** The error an A2A SDK call failed with: its class name, code and data. */
function a2aFailureOf(error: unknown): { name: string; code?: number; data?: Json } {
  const raw = error as { envelopeCode?: number; cause?: unknown; data?: Json; name: string };
  const e = raw.envelopeCode === undefined && raw.cause ? (raw.cause as typeof raw) : raw;
  return {
    name: e.name,
    ...(e.envelopeCode === undefined ? {} : { code: e.envelopeCode }),
    ...(e.data ? { data: e.data } : {}),
  };
}

async function a2aRefusal(call: Promise<unknown>): Promise<ReturnType<typeof a2aFailureOf>> {
  try {
    await call;
  } catch (error) {
    return a2aFailureOf(error);
  }
  throw new Error('the call was not refused');
}

/**
 * Issue 30 § 3 "Must show" (D41, D61): every refusal of the relay on the MCP and A2A paths, seen
 * through the official MCP SDK client and the official A2A JS SDK client, is the platform's own
 * error with its `data.agpCode` — never the MCP SDK's RequestTimeout (−32001) nor one of A2A's
 * task errors — and the LLM path's problem+json carries the same `agpCode`.
 */
describe.each<PlatformMode>(['services', 'embedded'])('Refusal codes (%s)', (mode) => {
  let platform: McpPlatform;
  let world: McpWorld;
  let a2a: A2aWorld;
  let tools: McpTestServer;
  let serverId: string;
  let a2aAgent: Awaited<ReturnType<typeof startA2aTestAgent>>;
  let provider: OpenAiTestProvider;
  let gatewayId: string;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    world = await McpWorld.create(platform);
    a2a = new A2aWorld(world);
    tools = await startMcpTestServer();
    serverId = await world.mcpServer(tools.url);
    a2aAgent = await startA2aTestAgent();
    provider = await startOpenAiTestProvider();
    const llmProvider = await world.ok<{ id: string }>('POST', '/relay/v1/llm-providers', {
      name: 'refusals-provider',
      baseUrl: provider.baseUrl,
    });
    const gateway = await world.ok<{ id: string }>('POST', '/relay/v1/llm-gateways', {
      name: 'refusals-gateway',
      providers: [llmProvider.id],
    });
    gatewayId = gateway.id;
  });

  afterAll(async () => {
    await tools?.close();
    await a2aAgent?.close();
    await provider?.close();
    await platform?.close();
  });

  /** A fresh agent subscribed on all three paths, REFUSING_POLICY bound to it. */
  async function caller(): Promise<{ agent: TestAgent; a2aTargetId: string }> {
    const agent = await world.agent();
    await world.subscribe(agent.id, serverId);
    const target = await a2a.target(a2aAgent.cardUrl);
    await a2a.subscribe(agent.id, target.id);
    await world.ok('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_LLM_GATEWAY',
      sourceId: agent.id,
      targetId: gatewayId,
    });
    await world.bindToAgent(agent.id, REFUSING_POLICY);
    return { agent, a2aTargetId: target.id };
  }

  function mcpCall(agent: TestAgent, text: string) {
    return refusalOf(
      connectMcpClient(world.mcpUrl(serverId), { token: agent.mcpToken }).then(async (sut) => {
        try {
          return await sut.client.callTool({ name: 'echo', arguments: { text } });
        } finally {
          await sut.close();
        }
      }),
    );
  }

  async function a2aCall(agent: TestAgent, targetId: string, text: string) {
    const client = await a2a.client(agent, targetId);
    return a2aRefusal(client.sendMessage(userMessage(text)));
  }

  function llm(agent: TestAgent): OpenAI {
    return new OpenAI({
      baseURL: `${platform.baseUrl}/relay/llm/${gatewayId}/v1`,
      apiKey: agent.mcpToken,
      maxRetries: 0,
    });
  }

  async function llmCall(agent: TestAgent, text: string) {
    const error = await llm(agent)
      .chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: text }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    return error as InstanceType<typeof OpenAI.APIError>;
  }

  function expectMcp(refusal: Awaited<ReturnType<typeof refusalOf>>, agpCode: AgpCode): void {
    expect(refusal.rpcCode).not.toBe(ErrorCode.RequestTimeout);
    expect(refusal).toMatchObject({ rpcCode: CODES[agpCode], data: { agpCode } });
  }

  function expectA2a(failure: ReturnType<typeof a2aFailureOf>, agpCode: AgpCode): void {
    // Not TaskNotFoundError, TaskNotCancelableError … : the SDK's class for codes it does not know.
    expect(A2A_TASK_ERRORS).not.toContain(failure.name);
    expect(failure.name).toBe('JsonRpcTransportError');
    expect(failure).toMatchObject({ code: CODES[agpCode], data: { agpCode } });
  }

  it.each<AgpCode>(['blocked_by_policy', 'policy_error'])(
    'should give the %s refusal its own code and agpCode on every path',
    async (agpCode) => {
      const { agent, a2aTargetId } = await caller();
      const text = `${TEXT_FOR[agpCode]} ${randomUUID()}`;

      const mcp = await mcpCall(agent, text);
      const overA2a = await a2aCall(agent, a2aTargetId, text);
      const overLlm = await llmCall(agent, text);

      expectMcp(mcp, agpCode);
      expect(mcp.data).toMatchObject({
        reasons: [expect.any(String)],
        decisionId: expect.any(String),
        correlationId: expect.any(String),
      });
      expectA2a(overA2a, agpCode);
      expect(overLlm.status).toBe(403);
      expect(overLlm.error).toMatchObject({ agpCode, decisionId: expect.any(String) });
      expect(tools.calls.filter((c) => JSON.stringify(c.arguments).includes(text))).toEqual([]);
    },
  );

  it('should answer review_pending on every path while a hold is still waiting for a person', async () => {
    const { agent, a2aTargetId } = await caller();
    await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 1 });
    try {
      const mcp = await mcpCall(agent, `needs a person ${randomUUID()}`);
      const overA2a = await a2aCall(agent, a2aTargetId, `needs a person ${randomUUID()}`);
      const overLlm = await llmCall(agent, `needs a person ${randomUUID()}`);

      expectMcp(mcp, 'review_pending');
      expect(mcp.data).toMatchObject({
        hitlRequestId: expect.any(String),
        retryAfter: expect.any(Number),
      });
      expectA2a(overA2a, 'review_pending');
      expect(overLlm.status).toBe(409);
      expect(overLlm.error).toMatchObject({ agpCode: 'review_pending' });
    } finally {
      await world.ok('PATCH', '/relay/v1/traffic-settings', { hitlWaitSeconds: 30 });
    }
  });

  it('should answer review_rejected on every path when a person rejects the held message', async () => {
    const { agent, a2aTargetId } = await caller();
    /** The call, its hold rejected by a person while it waits (the tenant waits 30 s). */
    const rejected = async <T>(call: Promise<T>): Promise<T> => {
      const held = await eventually(async () => {
        const page = await world.ok<{ items: Array<{ id: string }> }>(
          'GET',
          `/relay/v1/hitl-requests?status=PENDING&agentId=${agent.id}`,
        );
        expect(page.items).toHaveLength(1);
        return page.items[0];
      });
      await world.ok('POST', `/relay/v1/hitl-requests/${held.id}/reject`, { note: 'no' }, 200);
      return call;
    };

    const mcp = await rejected(mcpCall(agent, `needs a person ${randomUUID()}`));
    const overA2a = await rejected(a2aCall(agent, a2aTargetId, `needs a person ${randomUUID()}`));
    const overLlm = await rejected(llmCall(agent, `needs a person ${randomUUID()}`));

    expectMcp(mcp, 'review_rejected');
    expectA2a(overA2a, 'review_rejected');
    expect(overLlm.status).toBe(403);
    expect(overLlm.error).toMatchObject({ agpCode: 'review_rejected' });
  });

  it('should answer kill_switch on every path while a switch on the caller is engaged', async () => {
    const { agent, a2aTargetId } = await caller();
    const engaged = await world.ok<{ id: string }>('POST', '/relay/v1/kill-switches', {
      scope: 'AGENT',
      targetId: agent.id,
      reason: 'incident 42',
    });
    try {
      const mcp = await eventually(async () => {
        const refusal = await mcpCall(agent, 'hello');
        expect(refusal.rpcCode).toBe(CODES.kill_switch);
        return refusal;
      });
      const overA2a = await a2aCall(agent, a2aTargetId, 'hello');
      const overLlm = await llmCall(agent, 'hello');

      expectMcp(mcp, 'kill_switch');
      expect(mcp.data).toMatchObject({ killSwitchId: engaged.id });
      expectA2a(overA2a, 'kill_switch');
      expect(overLlm.status).toBe(403);
      expect(overLlm.error).toMatchObject({ agpCode: 'kill_switch', killSwitchId: engaged.id });
    } finally {
      await world.ok('DELETE', `/relay/v1/kill-switches/${engaged.id}`);
    }
  });

  it('should answer rate_limited with 429 and Retry-After on every path, the JSON-RPC paths in JSON-RPC', async () => {
    const { agent, a2aTargetId } = await caller();
    await world.ok('PATCH', '/relay/v1/traffic-settings', { rateLimits: { agentPerMinute: 3 } });
    try {
      // T2: the limit reaches the relay within half a second; calls count from then on.
      const mcp = await eventually(async () => {
        const refusal = await mcpCall(agent, 'hello');
        expect(refusal.httpStatus).toBe(429);
        return refusal;
      });
      const overA2a = await a2aCall(agent, a2aTargetId, 'hello');
      const overLlm = await llmCall(agent, 'hello');
      const raw = await a2a.post(agent, a2aTargetId, { jsonrpc: '2.0', id: 9, method: 'GetTask' });

      // The MCP SDK reports a non-2xx POST as StreamableHTTPError, with the body it was given.
      expect(mcp.message).toContain(`"code":${CODES.rate_limited}`);
      expect(mcp.message).toContain('"agpCode":"rate_limited"');
      expectA2a(overA2a, 'rate_limited');
      expect(overLlm.status).toBe(429);
      expect(overLlm.error).toMatchObject({ agpCode: 'rate_limited' });
      expect(raw).toMatchObject({
        status: 429,
        body: { jsonrpc: '2.0', id: 9, error: { code: CODES.rate_limited } },
      });
    } finally {
      await world.ok('PATCH', '/relay/v1/traffic-settings', {
        rateLimits: { agentPerMinute: null },
      });
    }
  });
});

/** The published library cannot import the platform's table (it depends on no workspace package). */
describe('the client library refusal codes', () => {
  it('should equal the table the relay answers from', () => {
    const platform = Object.fromEntries(Object.values(REFUSALS).map((r) => [r.agpCode, r.code]));

    expect(REFUSAL_CODES).toEqual(platform);
  });
});
