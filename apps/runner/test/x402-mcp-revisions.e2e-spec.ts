import { randomUUID } from 'node:crypto';

import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld, TestAgent } from './mcp/mcp-world';
import { RevisionServer, startLegacyServer, startModernServer } from './mcp/revision-servers';
import { LocalFacilitator } from './x402/local-facilitator';
import { PaidMcpProxy, startPaidMcpProxy } from './x402/paid-mcp-proxy';
import { TestWallet, expectNoPayload, payingFetch } from './x402/x402-payer';

const PAYEE = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';

/**
 * Issue 41 § 1 across MCP revisions (payments.md PY19): a server that charges per tool call with
 * the official `@x402/express` middleware, reached by a client of the other MCP revision through
 * the relay's revision bridge. The official SDK clients pay with `@x402/fetch` as their fetch; the
 * payment is judged, carried in the translated request, and settled, both ways.
 */
describe.each<PlatformMode>(['embedded', 'services'])(
  'x402 payments through the MCP revision bridge (%s)',
  (mode) => {
    let platform: McpPlatform;
    let facilitator: LocalFacilitator;
    let world: McpWorld;
    const servers: RevisionServer[] = [];
    const proxies: PaidMcpProxy[] = [];
    let wallet: () => TestWallet;

    beforeAll(async () => {
      const { generatePrivateKey, privateKeyToAccount } = await import('viem/accounts');
      wallet = () => privateKeyToAccount(generatePrivateKey());
      platform = await startMcpPlatform(mode);
      facilitator = new LocalFacilitator();
      await facilitator.start();
      world = await McpWorld.create(platform);
      await world.ok('PATCH', '/relay/v1/traffic-settings', { contentCapture: true });
    });

    afterAll(async () => {
      await Promise.all(proxies.map((p) => p.close()));
      await Promise.all(servers.map((s) => s.close()));
      await facilitator?.close();
      await platform?.close();
    });

    async function paidServer(
      start: () => Promise<RevisionServer>,
      agent: TestAgent,
    ): Promise<{ serverId: string; proxy: PaidMcpProxy }> {
      const server = await start();
      servers.push(server);
      const proxy = await startPaidMcpProxy(server.url, facilitator.url, PAYEE);
      proxies.push(proxy);
      const serverId = await world.mcpServer(proxy.url);
      await world.subscribe(agent.id, serverId);
      return { serverId, proxy };
    }

    function payingFetchOf(agent: TestAgent, correlationId: string) {
      return payingFetch(agent.mcpToken, correlationId, wallet());
    }

    async function expectSettled(correlationId: string, serverId: string, sent: string[]) {
      const trace = await world.trace(correlationId, (items) =>
        items.some((e) => e.eventType === 'X402_PAYMENT_SUCCESS'),
      );
      const types = trace.map((e) => String(e.eventType)).filter((t) => t.startsWith('X402_'));
      expect(types).toEqual(
        expect.arrayContaining([
          'X402_PAYMENT_REQUIRED',
          'X402_PAYMENT_ATTEMPT',
          'X402_PAYMENT_SUCCESS',
        ]),
      );
      expect(trace.find((e) => e.eventType === 'X402_PAYMENT_SUCCESS')).toMatchObject({
        protocol: 'MCP',
        sink: expect.objectContaining({ type: 'MCP_SERVER', id: serverId }),
        details: expect.objectContaining({
          payment: expect.objectContaining({ amountUsd: '0.01', payTo: PAYEE }),
        }),
      });
      expectNoPayload(trace, sent);
    }

    it('should carry a 2026-07-28 client’s payment to a 2025-11-25 server and record it settled', async () => {
      const agent = await world.agent();
      const { serverId, proxy } = await paidServer(startLegacyServer, agent);
      const correlationId = randomUUID();
      const paying = payingFetchOf(agent, correlationId);
      const sut = new ModernClient(
        { name: 'modern-agent', version: '2.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await sut.connect(
        new ModernTransport(new URL(world.mcpUrl(serverId)), { fetch: paying.fetch }),
      );

      const result = await sut.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      await sut.close();

      expect(JSON.stringify(result)).toContain('Hello, Ada! (2025-11-25)');
      expect(proxy.paidRequests).toEqual(paying.sent);
      await expectSettled(correlationId, serverId, paying.sent);
    });

    it('should carry a 2025-11-25 client’s payment to a 2026-07-28 server and record it settled', async () => {
      const agent = await world.agent();
      const { serverId, proxy } = await paidServer(startModernServer, agent);
      const correlationId = randomUUID();
      const paying = payingFetchOf(agent, correlationId);
      const sut = new LegacyClient({ name: 'legacy-agent', version: '1.0.0' });
      await sut.connect(
        new LegacyTransport(new URL(world.mcpUrl(serverId)), { fetch: paying.fetch }),
      );

      const result = await sut.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      await sut.close();

      expect(JSON.stringify(result)).toContain('Hello, Ada!');
      expect(proxy.paidRequests).toEqual(paying.sent);
      await expectSettled(correlationId, serverId, paying.sent);
    });

    it('should give back the reservation of a paid request the bridge answers itself (PY26)', async () => {
      const agent = await world.agent();
      const { serverId, proxy } = await paidServer(startModernServer, agent);
      await world.ok('POST', '/relay/v1/budgets', {
        scope: 'AGENT',
        targetId: agent.id,
        period: 'DAY',
        unit: 'USD',
        hardLimit: '0.015',
      });
      const pinged = randomUUID();
      // The paid retry of a tools/call becomes a ping, which the bridge answers without the server.
      const paying = payingFetch(agent.mcpToken, pinged, wallet(), (body) =>
        JSON.stringify({ ...(JSON.parse(body) as object), method: 'ping', params: {} }),
      );
      const early = new LegacyClient({ name: 'legacy-agent', version: '1.0.0' });
      await early.connect(
        new LegacyTransport(new URL(world.mcpUrl(serverId)), { fetch: paying.fetch }),
      );
      await early.callTool({ name: 'greet', arguments: { name: 'Ada' } }).catch(() => undefined);
      await early.close();
      expect(paying.sent).toHaveLength(1);
      expect(proxy.paidRequests).toEqual([]);
      const trace = await world.trace(pinged, (items) =>
        items.some((e) => e.eventType === 'X402_PAYMENT_REJECTED'),
      );
      const types = trace.map((e) => String(e.eventType)).filter((t) => t.startsWith('X402_'));
      expect(types).not.toContain('X402_PAYMENT_ATTEMPT');
      expect(trace.find((e) => e.eventType === 'X402_PAYMENT_REJECTED')!.details).toMatchObject({
        reason: 'invalid',
        payment: expect.objectContaining({ amountUsd: '0.01' }),
      });
      const correlationId = randomUUID();
      const next = payingFetchOf(agent, correlationId);
      const sut = new LegacyClient({ name: 'legacy-agent', version: '1.0.0' });
      await sut.connect(
        new LegacyTransport(new URL(world.mcpUrl(serverId)), { fetch: next.fetch }),
      );

      // Under the 0.015 hard limit only if the first payment's 0.01 was given back.
      const result = await sut.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      await sut.close();

      expect(JSON.stringify(result)).toContain('Hello, Ada!');
      await expectSettled(correlationId, serverId, next.sent);
    });
  },
);
