import { randomUUID } from 'node:crypto';

import { Role } from '@a2a-js/sdk';
import OpenAI from 'openai';

import {
  A2aTestAgent,
  McpTestServer,
  OpenAiTestProvider,
  connectMcpClient,
  refusalOf,
  startA2aTestAgent,
  startMcpTestServer,
  startOpenAiTestProvider,
} from '@agp/testing';

import { A2aWorld, a2aRefusalOf } from './a2a/a2a-world';
import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';

/**
 * D50, D53 and guardrails.md GR15–GR18: the tenant's set `tickets` as policies see it; a
 * MUST_NOT_MATCH finding blocks. GR19: a failed schema check blocks only because this policy
 * says so (validation alone never does).
 */
const GUARD_POLICY = `package guard.checks

import rego.v1

found := agp.detect.patterns(input.message.text, "tickets")

forbidden contains f.type if {
	some f in found
	f.mode == "MUST_NOT_MATCH"
}

invalid contains r.target if {
	some r in input.validation.results
	not r.valid
}

decision := {"action": "BLOCK", "reasons": [concat(", ", ["must not match", concat(", ", forbidden)])]} if {
	count(forbidden) > 0
} else := {"action": "BLOCK", "reasons": [concat(": ", ["invalid", concat(", ", invalid)])]} if {
	count(invalid) > 0
} else := {"action": "LOG"}
`;

/** GR36: what a policy is given, as its one reason. */
const ECHO_INPUT = `package dry.echo

import rego.v1

decision := {"action": "LOG", "reasons": [json.marshal({
	"definition": object.get(input, ["tool", "definition"], null),
	"validation": object.get(input, "validation", null),
	"disclosure": object.get(input, "disclosure", null),
})]}
`;

const ORDER_SCHEMA = {
  type: 'object',
  properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
  required: ['sku', 'qty'],
};

const ofType = (items: Json[], type: string): Json[] => items.filter((e) => e.eventType === type);
const direction = (event: Json): unknown => (event.details as Json | undefined)?.direction;
const validationOf = (event: Json): Json => (event.details as Json).validation as Json;
/** GR24: the hop's COMMUNICATION_AUDIT event, which a VALIDATION_RESULT names. */
const decidedHop = (trace: Json[], checked: Json): Json | undefined =>
  trace.find((e) => e.id === (checked.details as Json).hopEventId);
/** GR31: the hops of a trace whose values were checked against a schema, valid or not. */
const validatedHops = (items: Json[]): Json[] =>
  ofType(items, 'COMMUNICATION_AUDIT').filter((e) => validationOf(e) !== undefined);
/** A trace holding `count` hop events with their checks (GR31). */
const hopsChecked =
  (count: number) =>
  (items: Json[]): boolean =>
    validatedHops(items).length >= count;
/** A trace holding `count` VALIDATION_RESULT events (failed checks) and the hop event each names. */
const checkedHops =
  (count: number) =>
  (items: Json[]): boolean => {
    const checked = ofType(items, 'VALIDATION_RESULT');
    return checked.length >= count && checked.every((e) => decidedHop(items, e) !== undefined);
  };

/**
 * Issue 36 items 3 and 4 on the MCP, A2A and LLM paths: tenant pattern sets (D53) through the
 * decision cache into `agp.detect.patterns`, recorded as REGEX_DETECTION with types and counts;
 * tool arguments, structured content, A2A data parts and LLM answers checked against their
 * schemas as `input.validation`, on the hop's event, and VALIDATION_RESULT when one fails (GR31).
 */
describe('tenant pattern sets and schema validation', () => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let a2aAgent: A2aTestAgent;
  let llm: OpenAiTestProvider;
  let world: McpWorld;
  let serverId: string;
  let agent: TestAgent;

  beforeAll(async () => {
    platform = await startMcpPlatform('embedded');
    tools = await startMcpTestServer({ structuredTool: true });
    a2aAgent = await startA2aTestAgent();
    llm = await startOpenAiTestProvider({
      reply: (body) =>
        JSON.stringify(body.messages).includes('complete')
          ? '{"sku":"a-1","qty":2}'
          : '{"sku":"a-1"}',
    });
    world = await McpWorld.create(platform);
    serverId = await world.mcpServer(tools.url);
    agent = await world.agent();
    await world.subscribe(agent.id, serverId, null);
    await world.bindToAgent(agent.id, GUARD_POLICY);
  });

  afterAll(async () => {
    await Promise.all([tools?.close(), a2aAgent?.close(), llm?.close()]);
    await platform?.close();
  });

  function connect(correlationId: string) {
    return connectMcpClient(world.mcpUrl(serverId), {
      token: agent.mcpToken,
      headers: { 'x-correlation-id': correlationId },
    });
  }

  async function echo(correlationId: string, text: string): Promise<unknown> {
    const sut = await connect(correlationId);
    try {
      return await sut.client.callTool({ name: 'echo', arguments: { text } });
    } finally {
      await sut.close();
    }
  }

  describe('pattern sets (D53)', () => {
    beforeAll(async () => {
      await world.ok('POST', '/relay/v1/detection-patterns', {
        set: 'tickets',
        label: 'TICKET',
        pattern: 'TCK-[0-9]{6}',
      });
      await world.ok('POST', '/relay/v1/detection-patterns', {
        set: 'tickets',
        label: 'INTERNAL_HOST',
        pattern: '[a-z0-9]+\\.corp\\.internal',
        mode: 'MUST_NOT_MATCH',
        scope: 'REQUEST',
      });
    });

    it('should refuse a pattern the linear-time engine cannot run, and a label taken in its set', async () => {
      const backtracking = await world.api('POST', '/relay/v1/detection-patterns', {
        set: 'tickets',
        label: 'REPEATED',
        pattern: '(ab)\\1',
      });
      const caseless = await world.api('POST', '/relay/v1/detection-patterns', {
        set: 'tickets',
        label: 'CASELESS',
        pattern: 'tck',
        flags: 'i',
      });
      const taken = await world.api('POST', '/relay/v1/detection-patterns', {
        set: 'tickets',
        label: 'TICKET',
        pattern: 'T-[0-9]+',
      });

      expect(backtracking.status).toBe(400);
      expect(backtracking.body).toMatchObject({
        status: 400,
        errors: [{ field: 'pattern', message: expect.stringContaining('back-references') }],
      });
      expect(caseless.status).toBe(400);
      expect(taken.status).toBe(409);
      const listed = await world.ok<{ items: Json[] }>(
        'GET',
        '/relay/v1/detection-patterns?set=tickets',
      );
      expect(listed.items.map((p) => [p.label, p.mode, p.scope])).toEqual([
        ['INTERNAL_HOST', 'MUST_NOT_MATCH', 'REQUEST'],
        ['TICKET', 'DETECT', 'ALL'],
      ]);
    });

    it('should give the set to the policy and record what it found as types and counts', async () => {
      const correlationId = randomUUID();
      const marker = `m${randomUUID().slice(0, 8)}`;

      await echo(correlationId, `${marker} see TCK-123456 and TCK-654321`);

      expect(tools.calls.some((c) => JSON.stringify(c.arguments).includes(marker))).toBe(true);
      const trace = await world.trace(
        correlationId,
        (items) => ofType(items, 'REGEX_DETECTION').length >= 2,
      );
      const [request] = ofType(trace, 'REGEX_DETECTION').filter((e) => direction(e) === 'REQUEST');
      expect(request).toMatchObject({
        action: 'LOG',
        protocol: 'MCP',
        decision: {
          detections: [
            { kind: 'REGEX', label: 'TICKET', count: 2, set: 'tickets', mode: 'DETECT' },
          ],
        },
      });
      for (const event of ofType(trace, 'REGEX_DETECTION')) {
        expect(JSON.stringify(event)).not.toContain('TCK-123456');
      }
    });

    it('should block a MUST_NOT_MATCH finding before the tool server sees it', async () => {
      const correlationId = randomUUID();
      const marker = `m${randomUUID().slice(0, 8)}`;

      const refusal = await refusalOf(
        echo(correlationId, `${marker} connect to db7.corp.internal`),
      );

      expect(refusal.data).toMatchObject({ reasons: ['must not match, INTERNAL_HOST'] });
      expect(tools.calls.some((c) => JSON.stringify(c.arguments).includes(marker))).toBe(false);
      const trace = await world.trace(correlationId, (items) =>
        ofType(items, 'REGEX_DETECTION').some((e) => e.action === 'BLOCK'),
      );
      expect(JSON.stringify(trace)).not.toContain('db7.corp.internal');
    });

    it('should apply a pattern added after the policies were cached, on the next hop (GR17)', async () => {
      await echo(randomUUID(), 'warm the decision cache');
      await world.ok('POST', '/relay/v1/detection-patterns', {
        set: 'tickets',
        label: 'ORDER',
        pattern: 'ORD-[0-9]{4}',
      });
      const correlationId = randomUUID();

      await echo(correlationId, 'shipping ORD-1234');

      const trace = await world.trace(
        correlationId,
        (items) => ofType(items, 'REGEX_DETECTION').length >= 1,
      );
      expect(ofType(trace, 'REGEX_DETECTION')[0]).toMatchObject({
        decision: { detections: [{ kind: 'REGEX', label: 'ORDER', count: 1 }] },
      });
    });

    it('should find the set from the dry-run decision API as on a live hop (D50)', async () => {
      const decided = await world.ok<Json>(
        'POST',
        '/relay/v1/policy-decisions',
        {
          protocol: 'MCP',
          direction: 'REQUEST',
          source: { type: 'AGENT', id: agent.id },
          sink: { type: 'MCP_SERVER', id: serverId },
          method: 'tools/call',
          message: { json: { note: 'TCK-111111 from app.corp.internal' } },
        },
        200,
      );

      expect(decided).toMatchObject({
        action: 'BLOCK',
        reasons: ['must not match, INTERNAL_HOST'],
      });
      expect((decided.detections as Json[]).map((d) => [d.label, d.count]).sort()).toEqual([
        ['INTERNAL_HOST', 1],
        ['TICKET', 1],
      ]);
    });
  });

  describe('validation against schemas (GR19–GR24)', () => {
    let a2aTargetId: string | undefined;

    it('should check tools/call arguments against the listed inputSchema and leave the verdict to policy', async () => {
      const correlationId = randomUUID();
      const sut = await connect(correlationId);
      try {
        await sut.client.listTools();

        const refusal = await refusalOf(
          sut.client.callTool({ name: 'quote_order', arguments: { sku: 'a-1', qty: 0 } }),
        );

        expect(refusal.data).toMatchObject({ reasons: ['invalid: TOOL_ARGUMENTS'] });
        expect(tools.calls.filter((c) => c.tool === 'quote_order')).toEqual([]);
      } finally {
        await sut.close();
      }
      const trace = await world.trace(correlationId, checkedHops(1));
      const [event] = ofType(trace, 'VALIDATION_RESULT');
      expect(event).toMatchObject({ protocol: 'MCP' });
      expect(event.action ?? null).toBeNull();
      expect(decidedHop(trace, event)).toMatchObject({
        eventType: 'COMMUNICATION_AUDIT',
        action: 'BLOCK',
      });
      expect(validationOf(decidedHop(trace, event)!)).toEqual(validationOf(event));
      expect(validationOf(event)).toEqual({
        valid: false,
        results: [
          {
            target: 'TOOL_ARGUMENTS',
            schema: 'inputSchema',
            path: 'params.arguments',
            valid: false,
            errors: [{ path: '/qty', keyword: 'minimum', message: 'must be >= 1' }],
          },
        ],
      });
    });

    it('should check valid arguments and the structuredContent of the answer against outputSchema', async () => {
      const correlationId = randomUUID();
      const sut = await connect(correlationId);
      try {
        await sut.client.listTools();
        const answer = await sut.client.callTool({
          name: 'quote_order',
          arguments: { sku: 'a-1', qty: 2 },
        });
        expect(answer.structuredContent).toEqual({ total: 5, currency: 'EUR' });
      } finally {
        await sut.close();
      }
      const trace = await world.trace(correlationId, hopsChecked(2));
      // GR31: passing checks ride on the hops' own events, without a VALIDATION_RESULT.
      expect(ofType(trace, 'VALIDATION_RESULT')).toEqual([]);
      const results = validatedHops(trace).map((e) => [
        direction(e),
        e.action,
        (validationOf(e).results as Json[]).map((r) => [r.target, r.valid]),
      ]);
      expect(results.sort()).toEqual([
        ['REQUEST', 'LOG', [['TOOL_ARGUMENTS', true]]],
        ['RESPONSE', 'LOG', [['TOOL_STRUCTURED_CONTENT', true]]],
      ]);
    });

    it('should check A2A data parts against the schema the agent card declares', async () => {
      a2aAgent.card.capabilities!.extensions = [
        {
          uri: 'urn:agp:a2a:data-schemas:v1',
          description: 'the order data parts this agent accepts',
          required: false,
          params: { request: ORDER_SCHEMA },
        },
      ];
      const a2a = new A2aWorld(world);
      const target = await a2a.target(a2aAgent.cardUrl);
      a2aTargetId = target.id;
      const caller = await world.agent();
      await a2a.subscribe(caller.id, target.id);
      await world.bindToAgent(caller.id, GUARD_POLICY);
      const send = async (correlationId: ReturnType<typeof randomUUID>, data: Json) =>
        (await a2a.client(caller, target.id, correlationId)).sendMessage({
          tenant: '',
          message: {
            messageId: randomUUID(),
            contextId: '',
            taskId: '',
            role: Role.ROLE_USER,
            parts: [
              {
                content: { $case: 'text', value: `order ${correlationId}` },
                metadata: undefined,
                filename: '',
                mediaType: '',
              },
              {
                content: { $case: 'data', value: data },
                metadata: undefined,
                filename: '',
                mediaType: '',
              },
            ],
            metadata: undefined,
            extensions: [],
            referenceTaskIds: [],
          },
          configuration: undefined,
          metadata: undefined,
        });
      const [invalid, valid] = [randomUUID(), randomUUID()];

      const refusal = await a2aRefusalOf(send(invalid, { sku: 'a-1' }));
      await send(valid, { sku: 'a-1', qty: 3 });

      expect(refusal.data).toMatchObject({ reasons: ['invalid: A2A_DATA_PART'] });
      expect(a2aAgent.received.some((m) => m.text.includes(invalid))).toBe(false);
      expect(a2aAgent.received.some((m) => m.text.includes(valid))).toBe(true);
      const refused = await world.trace(invalid, checkedHops(1));
      expect(validationOf(ofType(refused, 'VALIDATION_RESULT')[0])).toEqual({
        valid: false,
        results: [
          expect.objectContaining({
            target: 'A2A_DATA_PART',
            path: 'params.message.parts.1.data',
            valid: false,
            errors: [expect.objectContaining({ keyword: 'required' })],
          }),
        ],
      });
      const passed = await world.trace(valid, hopsChecked(1));
      expect(ofType(passed, 'VALIDATION_RESULT')).toEqual([]);
      expect(validatedHops(passed).map((e) => [direction(e), validationOf(e).valid])).toEqual([
        ['REQUEST', true],
      ]);
    });

    it("should prepare a dry run's input as a live hop's: tool definition, validation, disclosure (GR36)", async () => {
      const group = await world.ok<{ id: string }>('POST', '/relay/v1/policy-groups', {
        name: `echo-${randomUUID().slice(0, 8)}`,
        data: {},
      });
      await world.ok('POST', `/relay/v1/policy-groups/${group.id}/versions`, {
        regoSource: ECHO_INPUT,
      });
      const seen = async (hop: Json): Promise<Json> => {
        const decided = await world.ok<{ reasons: string[] }>(
          'POST',
          `/relay/v1/policy-groups/${group.id}/versions/1/test-runs`,
          hop,
          200,
        );
        return JSON.parse(decided.reasons[0]) as Json;
      };
      const rpc = (body: Json): Json => ({ json: { jsonrpc: '2.0', id: 1, ...body } });

      const toolCall = await seen({
        protocol: 'MCP',
        direction: 'REQUEST',
        source: { type: 'AGENT', id: agent.id },
        sink: { type: 'MCP_SERVER', id: serverId },
        method: 'tools/call',
        tool: { name: 'quote_order' },
        message: rpc({
          method: 'tools/call',
          params: { name: 'quote_order', arguments: { sku: 'a-1', qty: 0 } },
        }),
      });
      const dataPart = await seen({
        protocol: 'JSONRPC',
        direction: 'REQUEST',
        source: { type: 'AGENT', id: agent.id },
        sink: { type: 'AGENT', id: a2aTargetId },
        method: 'message/send',
        message: rpc({
          method: 'message/send',
          params: { message: { parts: [{ kind: 'data', data: { sku: 'a-1' } }] } },
        }),
      });
      const toPerson = await seen({
        protocol: 'JSONRPC',
        direction: 'RESPONSE',
        source: { type: 'AGENT', id: a2aTargetId },
        sink: { type: 'USER', id: randomUUID() },
        method: 'message/send',
        message: rpc({ result: { kind: 'message', parts: [{ kind: 'text', text: 'hello' }] } }),
      });

      expect(toolCall).toEqual({
        definition: expect.objectContaining({ hash: expect.any(String), pinned: false }),
        validation: {
          valid: false,
          results: [
            {
              target: 'TOOL_ARGUMENTS',
              schema: 'inputSchema',
              path: 'params.arguments',
              valid: false,
              errors: [{ path: '/qty', keyword: 'minimum', message: 'must be >= 1' }],
            },
          ],
        },
        disclosure: null,
      });
      expect(dataPart).toMatchObject({
        definition: null,
        validation: {
          valid: false,
          results: [{ target: 'A2A_DATA_PART', path: 'params.message.parts.0.data' }],
        },
        disclosure: null,
      });
      expect(toPerson).toEqual({
        definition: null,
        validation: null,
        disclosure: { mode: 'OFF', madeBefore: false, willBeMade: false, contentMarking: false },
      });
    });

    it("should check an LLM answer against the request's response_format schema", async () => {
      const provider = await world.ok<{ id: string }>('POST', '/relay/v1/llm-providers', {
        name: `provider-${randomUUID().slice(0, 8)}`,
        baseUrl: llm.baseUrl,
        apiKey: 'sk-provider-key',
      });
      const gateway = await world.ok<{ id: string }>('POST', '/relay/v1/llm-gateways', {
        name: `gateway-${randomUUID().slice(0, 8)}`,
        providers: [provider.id],
      });
      const caller = await world.agent();
      await world.ok('POST', '/relay/v1/subscriptions', {
        kind: 'AGENT_TO_LLM_GATEWAY',
        sourceId: caller.id,
        targetId: gateway.id,
      });
      await world.bindToAgent(caller.id, GUARD_POLICY);
      const ask = (correlationId: string, content: string) =>
        new OpenAI({
          baseURL: `${platform.baseUrl}/relay/llm/${gateway.id}/v1`,
          apiKey: caller.mcpToken,
          maxRetries: 0,
          defaultHeaders: { 'x-correlation-id': correlationId },
        }).chat.completions.create({
          model: 'test-model',
          messages: [{ role: 'user', content }],
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'order', schema: ORDER_SCHEMA },
          },
        });
      const [complete, partial] = [randomUUID(), randomUUID()];

      const answered = await ask(complete, 'the complete order please');
      await expect(ask(partial, 'the order please')).rejects.toThrow(/invalid: LLM_RESPONSE/);

      expect(answered.choices[0].message.content).toBe('{"sku":"a-1","qty":2}');
      const good = await world.trace(complete, hopsChecked(1));
      expect(ofType(good, 'VALIDATION_RESULT')).toEqual([]);
      expect(validationOf(validatedHops(good)[0])).toEqual({
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
      const bad = await world.trace(partial, checkedHops(1));
      const [event] = ofType(bad, 'VALIDATION_RESULT');
      expect(event).toMatchObject({ protocol: 'REST' });
      expect(decidedHop(bad, event)).toMatchObject({ action: 'BLOCK' });
      expect(validationOf(event)).toMatchObject({
        valid: false,
        results: [{ valid: false, errors: [{ path: '', keyword: 'required' }] }],
      });
    });
  });
});
