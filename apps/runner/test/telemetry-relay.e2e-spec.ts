import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { McpTestServer, eventually, startMcpTestServer } from '@agp/testing';

import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { WARN_POLICY } from './mcp/mcp-policies';
import { Json, McpWorld } from './mcp/mcp-world';

const AGENT_SCRIPT = path.join(__dirname, 'telemetry', 'otel-mcp-agent.ts');
const ENCODINGS = { 'http/json': 'none', 'http/protobuf': 'gzip' } as const;

interface AgentRun {
  traceId: string;
  toolSpanId: string;
  failures: string[];
}

// traffic.md T93: the relay's batch processor sends within a fifth of a second in this suite.
process.env.OTEL_BSP_SCHEDULE_DELAY = '200';

/**
 * Issue 37 items 3 and 4 (D46, traffic.md T89–T93, audit.md A30): an agent instrumented with
 * `@opentelemetry/sdk-node` calls a tool through the relay inside its span; its trace holds the
 * relay's hop spans as children of that span, the server got the relay's span as its parent, and
 * the hop's audit events name the same span.
 */
describe('the relay in an agent’s OpenTelemetry trace (services)', () => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let world: McpWorld;
  let serverId: string;
  let agentId: string;
  let mcpToken: string;
  let telemetryToken: string;
  let policyId: string;

  beforeAll(async () => {
    platform = await startMcpPlatform('services', { RELAY_SPANS_SAMPLE_RATIO: '1' });
    tools = await startMcpTestServer();
    world = await McpWorld.create(platform);
    serverId = await world.mcpServer(tools.url);
    const created = await world.ok<{ id: string; clientSecret: string }>(
      'POST',
      '/tenant-auth/v1/agents',
      { name: `mcp-agent-${serverId.slice(0, 8)}` },
    );
    await eventually(async () => {
      expect((await world.api('GET', `/relay/v1/agents/${created.id}`)).status).toBe(200);
    });
    const tokenOf = (scope: string) =>
      McpWorld.token(platform.baseUrl, {
        grant_type: 'client_credentials',
        client_id: created.id,
        client_secret: created.clientSecret,
        scope,
      });
    agentId = created.id;
    mcpToken = await tokenOf('mcp:call');
    telemetryToken = await tokenOf('telemetry:write');
    await world.subscribe(agentId, serverId);
    policyId = await world.bindToAgent(agentId, WARN_POLICY);
  });

  afterAll(async () => {
    await tools?.close();
    await platform?.close();
  });

  it.each(Object.keys(ENCODINGS) as Array<keyof typeof ENCODINGS>)(
    'should show the relay’s MCP hops under the agent’s span when it exports in %s',
    async (encoding) => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', AGENT_SCRIPT, encoding],
        {
          cwd: path.join(__dirname, '..'),
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            OTEL_EXPORTER_OTLP_ENDPOINT: `${platform.baseUrl}/audit/v1/telemetry`,
            OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${telemetryToken}`,
            OTEL_EXPORTER_OTLP_COMPRESSION: ENCODINGS[encoding],
            MCP_URL: world.mcpUrl(serverId),
            AGENT_MCP_TOKEN: mcpToken,
          },
          timeout: 60_000,
        },
      );
      const run = JSON.parse(stdout) as AgentRun;
      expect(run.failures).toEqual([]);

      const tree = await eventually(async () => {
        const answer = await world.ok<{ spans: Json[]; correlationIds: string[] }>(
          'GET',
          `/audit/v1/telemetry/traces/${run.traceId}`,
        );
        expect(answer.spans.some((s) => s.name === 'tools/call lookup_customer')).toBe(true);
        expect(answer.spans.filter((s) => s.serviceName === 'agp-relay').length).toBeGreaterThan(3);
        return answer;
      });
      const [root, tool, ...relay] = tree.spans;
      expect([root.name, root.depth, tool.name, tool.depth]).toEqual([
        'invoke_agent support',
        0,
        'execute_tool lookup_customer',
        1,
      ]);
      // Every hop of the call (initialize, tools/call, their answers) is a child of the tool span.
      expect(relay.every((s) => s.parentSpanId === run.toolSpanId && s.depth === 2)).toBe(true);
      const call = relay.find(
        (s) =>
          s.name === 'tools/call lookup_customer' &&
          (s.attributes as Json)['agp.hop.direction'] === 'REQUEST',
      )!;
      expect(call).toMatchObject({
        serviceName: 'agp-relay',
        agentId: null,
        attributes: {
          'mcp.method.name': 'tools/call',
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'lookup_customer',
          'gen_ai.agent.id': agentId,
          'agp.decision.action': 'WARN',
          'agp.decision.policy_ids': [policyId],
          'agp.tenant.id': expect.any(String),
        },
      });
      // T89: the server was called under the relay's span of the request hop.
      const received = tools.calls.find(
        (c) => String(c.headers.traceparent).split('-')[1] === run.traceId,
      );
      expect(received?.headers.traceparent).toBe(`00-${run.traceId}-${String(call.spanId)}-01`);
      // A27: the audit trail's hop names the same span, and the trace names its conversation (one
      // per HTTP request of the MCP session: initialize, its notification, the call).
      const correlationId = (call.attributes as Json)['agp.correlation_id'] as string;
      expect(tree.correlationIds).toHaveLength(3);
      expect(tree.correlationIds).toContain(correlationId);
      const events = await world.trace(correlationId, (items) =>
        items.some((e) => e.spanId === call.spanId),
      );
      const decided = events.find((e) => e.spanId === call.spanId)!;
      expect(decided).toMatchObject({
        eventType: 'COMMUNICATION_AUDIT',
        traceId: run.traceId,
        id: (call.attributes as Json)['agp.decision.id'],
      });
      const logs = await world.ok<{ items: Json[] }>(
        'GET',
        `/audit/v1/telemetry/logs?traceId=${run.traceId}`,
      );
      expect(logs.items).toEqual([expect.objectContaining({ spanId: run.toolSpanId, agentId })]);
    },
  );
});
