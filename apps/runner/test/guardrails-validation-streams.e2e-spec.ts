import { randomUUID } from 'node:crypto';

import OpenAI from 'openai';

import { OpenAiTestProvider, startOpenAiTestProvider } from '@agp/testing';

import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';
import { decidedHop, detailsOf, ofType, validationOf } from './guardrails/validation-trail';

/** GR19: a failed check blocks only because this policy says so; only warns with `lenient` data. */
const INVALID_BLOCKS = `package guard.streams

import rego.v1

invalid contains r.target if {
	some r in input.validation.results
	not r.valid
}

decision := {"action": "BLOCK", "reasons": [concat(": ", ["invalid", concat(", ", invalid)])]} if {
	count(invalid) > 0
	not data.guard.streams.lenient
} else := {"action": "WARN", "reasons": [concat(": ", ["invalid", concat(", ", invalid)])]} if {
	count(invalid) > 0
} else := {"action": "LOG"}
`;

const ORDER_SCHEMA = {
  type: 'object',
  properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 }, note: {} },
  required: ['sku', 'qty'],
};

const QUOTE_TOOL = {
  type: 'function',
  function: { name: 'quote_order', parameters: ORDER_SCHEMA },
} as const;

/**
 * guardrails.md GR35: a streamed completion checked whole when its stream ends, with the official
 * OpenAI SDK as the agent and an OpenAI-compatible provider written here: the last window carries
 * `input.validation`, so a policy can refuse what was not yet sent; VALIDATION_RESULT records it.
 */
describe('streamed LLM answers checked against their schemas (GR35)', () => {
  let platform: McpPlatform;
  let world: McpWorld;
  let llm: OpenAiTestProvider;
  let gatewayId: string;

  beforeAll(async () => {
    platform = await startMcpPlatform('embedded');
    world = await McpWorld.create(platform);
    llm = await startOpenAiTestProvider({
      reply: (body) =>
        JSON.stringify(body.messages).includes('complete')
          ? '{"sku": "a-1", "note": "a complete order", "qty": 2}'
          : '{"sku": "a-1", "note": "an order without a quantity"}',
      toolCalls: (body) =>
        JSON.stringify(body.messages).includes('quote')
          ? [
              {
                name: 'quote_order',
                arguments: JSON.stringify(
                  JSON.stringify(body.messages).includes('zero')
                    ? { sku: 'a-1', qty: 0 }
                    : { sku: 'a-1', qty: 3 },
                ),
              },
            ]
          : undefined,
    });
    const provider = await world.ok<{ id: string }>('POST', '/relay/v1/llm-providers', {
      name: `provider-${randomUUID().slice(0, 8)}`,
      baseUrl: llm.baseUrl,
      apiKey: 'sk-provider-key',
    });
    const gateway = await world.ok<{ id: string }>('POST', '/relay/v1/llm-gateways', {
      name: `gateway-${randomUUID().slice(0, 8)}`,
      providers: [provider.id],
    });
    gatewayId = gateway.id;
  });

  afterAll(async () => {
    await llm?.close();
    await platform?.close();
  });

  async function subscribedAgent(data: Json = {}): Promise<TestAgent> {
    const agent = await world.agent();
    await world.ok('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_LLM_GATEWAY',
      sourceId: agent.id,
      targetId: gatewayId,
    });
    await world.bindToAgent(agent.id, INVALID_BLOCKS, data);
    return agent;
  }

  function client(agent: TestAgent, correlationId: string): OpenAI {
    return new OpenAI({
      baseURL: `${platform.baseUrl}/relay/llm/${gatewayId}/v1`,
      apiKey: agent.mcpToken,
      maxRetries: 0,
      defaultHeaders: { 'x-correlation-id': correlationId },
    });
  }

  /** What the agent read of a stream, and what ended it (undefined: `[DONE]`). */
  async function streamed(
    sut: OpenAI,
    body: Omit<OpenAI.ChatCompletionCreateParamsStreaming, 'model' | 'stream'>,
  ): Promise<{ text: string; toolCalls: number; error?: Error }> {
    let text = '';
    let toolCalls = 0;
    try {
      const stream = await sut.chat.completions.create({
        model: 'test-model',
        stream: true,
        ...body,
      });
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta?.content ?? '';
        toolCalls += chunk.choices[0]?.delta?.tool_calls?.length ?? 0;
      }
      return { text, toolCalls };
    } catch (error) {
      return { text, toolCalls, error: error as Error };
    }
  }

  const ordered = (content: string) => ({
    messages: [{ role: 'user' as const, content }],
    response_format: {
      type: 'json_schema' as const,
      json_schema: { name: 'order', schema: ORDER_SCHEMA },
    },
  });

  it('should check the whole streamed answer with its last window and record it valid', async () => {
    const agent = await subscribedAgent();
    const correlationId = randomUUID();

    const answer = await streamed(client(agent, correlationId), ordered('the complete order'));

    expect(answer.error).toBeUndefined();
    expect(JSON.parse(answer.text)).toEqual({ sku: 'a-1', note: 'a complete order', qty: 2 });
    // GR31: a passing check rides on its hop's own event, without a VALIDATION_RESULT.
    const trace = await world.trace(correlationId, (items) =>
      ofType(items, 'COMMUNICATION_AUDIT').some((e) => validationOf(e) !== undefined),
    );
    expect(ofType(trace, 'VALIDATION_RESULT')).toEqual([]);
    const checked = ofType(trace, 'COMMUNICATION_AUDIT').filter(
      (e) => validationOf(e) !== undefined,
    );
    expect(checked).toHaveLength(1);
    const windows = ofType(trace, 'COMMUNICATION_AUDIT').filter(
      (e) => detailsOf(e).streamWindow !== undefined,
    );
    const last = Math.max(...windows.map((e) => detailsOf(e).streamWindow as number));
    expect(detailsOf(checked[0]).streamWindow).toBe(last);
    expect(validationOf(checked[0])).toEqual({
      valid: true,
      results: [
        {
          target: 'LLM_RESPONSE',
          schema: 'response_format json_schema',
          path: 'choices.0.message.content',
          valid: true,
          errors: [],
        },
      ],
    });
  });

  it('should end a stream whose whole answer is invalid with the refusal, after what was already sent', async () => {
    const agent = await subscribedAgent();
    const correlationId = randomUUID();

    const answer = await streamed(client(agent, correlationId), ordered('the order'));

    expect(answer.error).toBeInstanceOf(OpenAI.APIError);
    expect(answer.error?.message).toMatch(/invalid: LLM_RESPONSE/);
    // The first window went out before the stream ended; the last one did not.
    expect(answer.text.length).toBeGreaterThan(0);
    expect(answer.text).not.toContain('quantity"}');
    const trace = await world.trace(
      correlationId,
      (items) =>
        ofType(items, 'VALIDATION_RESULT').length > 0 &&
        ofType(items, 'LLM_GATEWAY_CALL').length > 0,
    );
    const [checked] = ofType(trace, 'VALIDATION_RESULT');
    expect(decidedHop(trace, checked)).toMatchObject({ action: 'BLOCK' });
    expect(validationOf(checked)).toMatchObject({
      valid: false,
      results: [{ target: 'LLM_RESPONSE', valid: false, errors: [{ keyword: 'required' }] }],
    });
    expect(detailsOf(ofType(trace, 'LLM_GATEWAY_CALL')[0])).toMatchObject({
      outcome: 'BLOCKED',
      streamed: true,
    });
  });

  it('should let a policy only warn, and deliver the whole stream', async () => {
    const agent = await subscribedAgent({ lenient: true });
    const correlationId = randomUUID();

    const answer = await streamed(client(agent, correlationId), ordered('the order'));

    expect(answer.error).toBeUndefined();
    expect(JSON.parse(answer.text)).toEqual({ sku: 'a-1', note: 'an order without a quantity' });
    const trace = await world.trace(correlationId, (items) =>
      ofType(items, 'VALIDATION_RESULT').some((e) => decidedHop(items, e)),
    );
    const [checked] = ofType(trace, 'VALIDATION_RESULT');
    expect(decidedHop(trace, checked)).toMatchObject({ action: 'WARN' });
    expect(validationOf(checked)).toMatchObject({ valid: false });
  });

  it("should check streamed tool calls' arguments against the function's parameters before any is sent", async () => {
    const agent = await subscribedAgent();
    const [good, bad] = [randomUUID(), randomUUID()];
    const tools = [QUOTE_TOOL];

    const valid = await streamed(client(agent, good), {
      messages: [{ role: 'user', content: 'quote three' }],
      tools,
    });
    const invalid = await streamed(client(agent, bad), {
      messages: [{ role: 'user', content: 'quote zero' }],
      tools,
    });

    expect(valid.error).toBeUndefined();
    expect(valid.toolCalls).toBe(1);
    expect(invalid.error?.message).toMatch(/invalid: LLM_TOOL_ARGUMENTS/);
    expect(invalid.toolCalls).toBe(0);
    const trace = await world.trace(bad, (items) =>
      ofType(items, 'VALIDATION_RESULT').some((e) => decidedHop(items, e)),
    );
    expect(validationOf(ofType(trace, 'VALIDATION_RESULT')[0])).toEqual({
      valid: false,
      results: [
        {
          target: 'LLM_TOOL_ARGUMENTS',
          schema: 'tools function.parameters',
          path: 'choices.0.message.tool_calls.0.function.arguments',
          valid: false,
          errors: [{ path: '/qty', keyword: 'minimum', message: 'must be >= 1' }],
        },
      ],
    });
  });
});
