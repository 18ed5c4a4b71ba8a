import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';

import {
  McpTestServer,
  OpenAiTestProvider,
  startMcpTestServer,
  startOpenAiTestProvider,
} from '@agp/testing';

import { SdkAgent, registerAgent, subscribeToLlmGateway } from './agent-sdk/sdk-world';
import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld } from './mcp/mcp-world';

const run = promisify(execFile);
const PROBE = path.join(__dirname, 'agent-sdk', 'wrapper-probe.ts');

type Probe = Record<string, unknown> & { governed: boolean; names: string[] };

/** Runs the probe in a process of its own, as an agent runs, configured by `env` only. */
async function probe(
  which: 'vercel-ai' | 'openai-agents' | 'server' | 'models',
  env: Record<string, string>,
  text = '',
): Promise<Probe> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', PROBE, which, text], {
    cwd: path.join(__dirname, '..'),
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TSX_TSCONFIG_PATH: path.join(__dirname, 'agent-sdk', 'tsconfig.probe.json'),
      ...env,
    },
  });
  return JSON.parse(stdout) as Probe;
}

/**
 * Issue 14 § 3: the two framework wrappers against the platform. Governed (all four runtime
 * variables), the framework is offered the subscribed MCP servers' tools, namespaced, and calling
 * one goes through the relay; standalone, it gets no tools and no discovery.
 */
describe('framework wrappers', () => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let provider: OpenAiTestProvider;
  let world: McpWorld;
  let agent: SdkAgent;
  let serverId: string;
  let serverName: string;

  beforeAll(async () => {
    platform = await startMcpPlatform('embedded');
    tools = await startMcpTestServer();
    provider = await startOpenAiTestProvider();
    world = await McpWorld.create(platform);
    agent = await registerAgent(world);
    serverId = await world.mcpServer(tools.url);
    serverName = (await world.ok<{ name: string }>('GET', `/relay/v1/mcp-servers/${serverId}`))
      .name;
    await world.subscribe(agent.id, serverId, ['echo', 'lookup_customer']);
  });

  afterAll(async () => {
    await provider?.close();
    await tools?.close();
    await platform?.close();
  });

  function runtimeEnv(): Record<string, string> {
    return {
      SVC_AGENT_ID: agent.id,
      SVC_CLIENT_SECRET: agent.secret,
      SVC_BASE_URL: platform.baseUrl,
      SVC_TOKEN_URL: `${platform.baseUrl}/tenant-auth/v1/oauth/token`,
      SVC_WEBHOOK_SECRET: 'whsec',
      LLM_MODEL: 'probe-model',
    };
  }

  it('should offer the granted tools namespaced and call them through the relay when the Vercel AI wrapper is governed', async () => {
    const marker = randomUUID();
    const namespace = `mcp_${serverName.replace(/[^A-Za-z0-9_-]/g, '_')}_${serverId.slice(0, 8)}`;

    const sut = await probe('vercel-ai', { ...runtimeEnv(), LLM_GATEWAY_ID: randomUUID() }, marker);

    expect(sut.governed).toBe(true);
    expect(sut.names.sort()).toEqual([`${namespace}__echo`, `${namespace}__lookup_customer`]);
    expect(JSON.stringify(sut.result)).toContain(marker);
    expect(tools.calls.some((c) => c.tool === 'echo' && c.arguments.text === marker)).toBe(true);
    expect(sut.card).toMatchObject({ name: 'probe-ai', version: '0.1.0' });
    expect(sut.status).toEqual({ configured: true, agent_id: agent.id });
  });

  it('should stay standalone with no tools when one runtime variable is missing', async () => {
    const { SVC_TOKEN_URL: _omitted, ...partial } = runtimeEnv();

    const ai = await probe('vercel-ai', partial);
    const openai = await probe('openai-agents', partial);

    expect([ai.governed, ai.names, ai.status]).toEqual([false, [], 404]);
    expect([openai.governed, openai.names]).toEqual([false, []]);
  });

  it('should name the missing gateway when the OpenAI Agents wrapper is governed without one', async () => {
    const failure = await probe('openai-agents', runtimeEnv()).catch(
      (error: { code: number; stderr: string }) => error,
    );

    expect(failure).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('subscribed to no LLM gateway'),
    });
  });

  it('should reach the model through the subscribed LLM gateway, whole and streamed, when both wrappers are governed', async () => {
    const modelAgent = await registerAgent(world);
    await subscribeToLlmGateway(world, modelAgent.id, provider.baseUrl);
    const marker = randomUUID();

    const sut = await probe(
      'models',
      {
        ...runtimeEnv(),
        SVC_AGENT_ID: modelAgent.id,
        SVC_CLIENT_SECRET: modelAgent.secret,
        LLM_MODEL: 'test-model',
      },
      marker,
    );

    expect(sut).toMatchObject({
      governed: true,
      whole: `Echo: whole ${marker}`,
      streamed: `Echo: streamed ${marker}`,
      agents: `Echo: agents ${marker}`,
    });
    expect(sut.parts).toBeGreaterThan(1);
    expect(provider.calls.map((c) => c.headers.authorization)).toEqual([
      'Bearer sk-provider-key',
      'Bearer sk-provider-key',
      'Bearer sk-provider-key',
    ]);
  });

  it('should answer an official A2A client with its responder when the server helper serves an agent', async () => {
    const marker = randomUUID();

    const sut = await probe('server', {}, marker);

    expect(JSON.stringify(sut.reply)).toContain(`answered: ${marker}`);
    expect(sut.card).toMatchObject({ name: 'probe-server', version: '0.1.0' });
  });
});
