import { randomUUID } from 'node:crypto';

import {
  McpTestServer,
  connectMcpClient,
  refusalOf,
  startMcpTestServer,
  toolText,
} from '@agp/testing';

import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';

const EMAIL = 'ana.lima@example.org';
const CARD = '4111 1111 1111 1111';
const TOKEN = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';

/**
 * Issue 36: the ready-made guardrails (GR11), installed in one call and bound at TENANT level, on
 * the MCP path: personal data masked by type label before the tool server sees it, a secret in a
 * request blocked, and the detection events carrying types and counts, never the matched text.
 */
describe('ready-made guardrails on the MCP path', () => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let world: McpWorld;
  let serverId: string;
  let agent: TestAgent;

  beforeAll(async () => {
    platform = await startMcpPlatform('embedded');
    tools = await startMcpTestServer();
    world = await McpWorld.create(platform);
    serverId = await world.mcpServer(tools.url);
    await world.ok('POST', '/relay/v1/guardrail-presets/install', {
      presets: ['PII', 'SECRETS'],
    });
    agent = await world.agent();
    await world.subscribe(agent.id, serverId, null);
  });

  afterAll(async () => {
    await tools?.close();
    await platform?.close();
  });

  function connect(correlationId: string) {
    return connectMcpClient(world.mcpUrl(serverId), {
      token: agent.mcpToken,
      headers: { 'x-correlation-id': correlationId },
    });
  }

  const detectionsOf = (trace: Json[], type: string): Json[] =>
    trace.filter((e) => e.eventType === type);

  it('should mask an e-mail and a card by their types both ways and audit types and counts only', async () => {
    const marker = `m${randomUUID().replace(/-/g, '')}`;
    const correlationId = randomUUID();
    const sut = await connect(correlationId);
    try {
      const echoed = await sut.client.callTool({
        name: 'echo',
        arguments: { note: `${marker} refund ${CARD} for ${EMAIL}` },
      });

      const seen = tools.calls.filter((c) => JSON.stringify(c.arguments).includes(marker));
      expect(seen.map((c) => c.arguments)).toEqual([
        { note: `${marker} refund [MASKED:PAYMENT_CARD] for [MASKED:EMAIL]` },
      ]);
      expect(toolText(echoed)).not.toContain(EMAIL);
      const trace = await world.trace(
        correlationId,
        (items) =>
          detectionsOf(items, 'PII_DETECTION').length >= 1 &&
          items.filter((e) => e.action === 'MASK').length >= 1,
      );
      const pii = detectionsOf(trace, 'PII_DETECTION')[0];
      expect(pii).toMatchObject({
        action: 'MASK',
        protocol: 'MCP',
        decision: {
          detections: [
            { kind: 'PII_DETECTION', label: 'EMAIL', count: 1 },
            { kind: 'PII_DETECTION', label: 'PAYMENT_CARD', count: 1 },
          ],
        },
      });
      for (const event of detectionsOf(trace, 'PII_DETECTION')) {
        expect(JSON.stringify(event)).not.toContain(EMAIL);
        expect(JSON.stringify(event)).not.toContain(CARD);
      }
    } finally {
      await sut.close();
    }
  });

  it('should block a secret in a request before the server and record its type and count only', async () => {
    const marker = `m${randomUUID().replace(/-/g, '')}`;
    const correlationId = randomUUID();
    const sut = await connect(correlationId);
    try {
      const refusal = await refusalOf(
        sut.client.callTool({
          name: 'echo',
          arguments: { text: `${marker} deploy with GITHUB_TOKEN=${TOKEN}` },
        }),
      );

      expect(refusal.rpcCode).toBe(-31001);
      expect(refusal.data).toMatchObject({
        reasons: ['secret in an outgoing message: GITHUB_TOKEN'],
      });
      expect(tools.calls.filter((c) => JSON.stringify(c.arguments).includes(marker))).toEqual([]);
      const trace = await world.trace(
        correlationId,
        (items) => detectionsOf(items, 'SECRET_DETECTION').length >= 1,
      );
      const [secret] = detectionsOf(trace, 'SECRET_DETECTION');
      expect(secret).toMatchObject({
        action: 'BLOCK',
        decision: { detections: [{ kind: 'SECRET_DETECTION', label: 'GITHUB_TOKEN', count: 1 }] },
      });
      expect(JSON.stringify(secret)).not.toContain(TOKEN);
    } finally {
      await sut.close();
    }
  });
});
