import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';

import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld } from './mcp/mcp-world';

const AGENT_SCRIPT = path.join(__dirname, 'telemetry', 'otel-agent.ts');
const ENCODINGS = { 'http/json': 'none', 'http/protobuf': 'gzip' } as const;

interface AgentRun {
  traceId: string;
  childSpanId: string;
  failures: string[];
}

/** Runs the instrumented agent once; what it exported is in the platform when it exits. */
async function runAgent(encoding: string, env: Record<string, string>): Promise<AgentRun> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', AGENT_SCRIPT, encoding],
    {
      cwd: path.join(__dirname, '..'),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      timeout: 60_000,
    },
  );
  return JSON.parse(stdout) as AgentRun;
}

/**
 * Issue 37 (D46, D54): an agent instrumented with OpenTelemetry's own SDK and OTLP exporters,
 * configured only by the standard variables (`OTEL_EXPORTER_OTLP_ENDPOINT={base_url}/audit/v1/
 * telemetry`, its token in `OTEL_EXPORTER_OTLP_HEADERS`), sends traces and logs through the
 * gateway; a security reader finds them as the agent's.
 */
describe('telemetry from the official OpenTelemetry exporters (services)', () => {
  let platform: McpPlatform;
  let world: McpWorld;
  let agentId: string;
  let agentToken: string;

  beforeAll(async () => {
    platform = await startMcpPlatform('services');
    world = await McpWorld.create(platform);
    const created = await world.ok<{ id: string; clientSecret: string }>(
      'POST',
      '/tenant-auth/v1/agents',
      { name: `otel-agent-${randomUUID().slice(0, 8)}` },
    );
    agentId = created.id;
    agentToken = await McpWorld.token(platform.baseUrl, {
      grant_type: 'client_credentials',
      client_id: created.id,
      client_secret: created.clientSecret,
      scope: 'telemetry:write',
    });
  });

  afterAll(async () => {
    await platform?.close();
  });

  it.each(Object.keys(ENCODINGS) as Array<keyof typeof ENCODINGS>)(
    'should store the spans and logs an agent exports in %s, as that agent’s, in one span tree',
    async (encoding) => {
      const agent = await runAgent(encoding, {
        OTEL_EXPORTER_OTLP_ENDPOINT: `${platform.baseUrl}/audit/v1/telemetry`,
        OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${agentToken}`,
        OTEL_EXPORTER_OTLP_COMPRESSION: ENCODINGS[encoding],
        CLAIMED_AGENT_ID: randomUUID(),
      });
      expect(agent.failures).toEqual([]);
      const { traceId } = agent;

      const tree = await world.ok<{ spans: Json[] }>(
        'GET',
        `/audit/v1/telemetry/traces/${traceId}`,
      );
      expect(tree.spans.map((s) => [s.name, s.depth, s.agentId, s.serviceName])).toEqual([
        ['invoke_agent support', 0, agentId, `support-agent-${encoding}`],
        ['execute_tool lookup_order', 1, agentId, `support-agent-${encoding}`],
      ]);
      expect(tree.spans[1]).toMatchObject({
        attributes: { 'gen_ai.tool.name': 'lookup_order' },
        scope: { name: 'support-agent', version: '1.0.0' },
      });
      const logs = await world.ok<{ items: Json[] }>(
        'GET',
        `/audit/v1/telemetry/logs?traceId=${traceId}&severity=WARN&attr.service.name=support-agent-${encoding}`,
      );
      expect(logs.items).toEqual([
        expect.objectContaining({
          body: 'order lookup was slow',
          agentId,
          spanId: agent.childSpanId,
        }),
      ]);
    },
  );

  it('should take an export from an administrator (TELEMETRY:WRITE) and refuse one without a token', async () => {
    const admin = await world.api('POST', '/audit/v1/telemetry/v1/traces', { resourceSpans: [] });

    expect(admin.status).toBe(200);
    const noToken = await fetch(`${platform.baseUrl}/audit/v1/telemetry/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noToken.status).toBe(401);
  });
});
