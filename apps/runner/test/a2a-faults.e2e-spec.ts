import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

import { freePort } from '@agp/testing';

import { A2aWorld, a2aRefusalOf, userMessage } from './a2a/a2a-world';
import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from './mcp/mcp-world';

type Fault = 'slow' | 'garbage' | 'cut' | 'down';

/**
 * An agent that fails the relay in one way per path: its card at `/card/<fault>` names the
 * JSON-RPC endpoint `/rpc/<fault>` (for `down`, a port nobody listens on).
 */
async function startFaultyAgent(
  downPort: number,
): Promise<{ base: string; close(): Promise<void> }> {
  const open = new Set<ServerResponse>();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const [, kind, fault] = (request.url ?? '').split('/') as [string, string, Fault];
    if (kind === 'card') {
      const url = fault === 'down' ? `http://127.0.0.1:${downPort}/rpc` : `${base}/rpc/${fault}`;
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          name: `faulty-${fault}`,
          capabilities: { streaming: true },
          supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        }),
      );
      return;
    }
    if (kind !== 'rpc') {
      response.writeHead(404).end();
      return;
    }
    request.resume();
    request.on('end', () => {
      if (fault === 'slow') {
        open.add(response);
      } else if (fault === 'garbage') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>');
      } else {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const task = { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } };
        response.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { task } })}\n\n`);
        setTimeout(() => response.end(), 50);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      open.forEach((r) => r.destroy());
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const send = (text: string): Json => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
});

/**
 * Issue 13 § 4: an agent that is down, slow, answers garbage or cuts its stream is answered as
 * a JSON-RPC error naming it (−31011 upstream_failed, −31010 stream_incomplete inside a stream;
 * D41, D61, T45), audited as ERROR, and never leaves the caller waiting.
 */
describe.each<PlatformMode>(['services', 'embedded'])('A2A relay faults (%s)', (mode) => {
  let platform: McpPlatform;
  let faulty: Awaited<ReturnType<typeof startFaultyAgent>>;
  let world: McpWorld;
  let a2a: A2aWorld;
  let caller: TestAgent;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    faulty = await startFaultyAgent(await freePort());
    world = await McpWorld.create(platform);
    a2a = new A2aWorld(world);
    caller = await world.agent();
  });

  afterAll(async () => {
    await faulty?.close();
    await platform?.close();
  });

  async function faultyTarget(fault: Fault): Promise<string> {
    const target = await a2a.target(`${faulty.base}/card/${fault}`, { a2aTimeoutMs: 300 });
    await a2a.subscribe(caller.id, target.id);
    return target.id;
  }

  async function errorHop(correlationId: string): Promise<Json> {
    const trace = await world.trace(correlationId, (items) =>
      items.some((e) => e.action === 'ERROR'),
    );
    return trace.find((e) => e.action === 'ERROR')!;
  }

  it.each<[Fault, number, RegExp]>([
    ['down', 502, /failed: .*ECONNREFUSED|failed/],
    ['slow', 504, /did not answer within 300 ms/],
    ['garbage', 502, /without a JSON-RPC answer/],
  ])(
    'should answer a JSON-RPC error and audit ERROR when the agent is %s',
    async (fault, status, why) => {
      const targetId = await faultyTarget(fault);
      const correlationId = randomUUID();

      const sut = await a2a.post(caller, targetId, send('hello'), {
        'x-correlation-id': correlationId,
      });

      expect(sut.status).toBe(status);
      expect(sut.body).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -31011,
          message: expect.stringMatching(why),
          data: { agpCode: 'upstream_failed' },
        },
      });
      expect(await errorHop(correlationId)).toMatchObject({
        protocol: 'JSONRPC',
        details: expect.objectContaining({ outcome: 'ERROR', direction: 'RESPONSE' }),
      });
    },
  );

  it('should end a stream the agent cut before the task ended with a JSON-RPC error event, audited', async () => {
    const targetId = await faultyTarget('cut');
    const correlationId = randomUUID();
    const sut = await a2a.client(caller, targetId, correlationId);
    const events: unknown[] = [];

    const refusal = await a2aRefusalOf(
      (async () => {
        for await (const event of sut.sendMessageStream(userMessage('stream please'))) {
          events.push(event);
        }
      })(),
    );

    expect(events).toHaveLength(1);
    expect(refusal).toMatchObject({
      code: -31010,
      message: expect.stringContaining('closed the stream before the task ended'),
      data: { agpCode: 'stream_incomplete' },
    });
    expect(await errorHop(correlationId)).toMatchObject({
      details: expect.objectContaining({ outcome: 'ERROR' }),
    });
  });

  it('should answer 502 for the card of an agent whose card cannot be fetched', async () => {
    const target = await a2a.target(`${faulty.base}/nothing-here`);
    await a2a.subscribe(caller.id, target.id);

    const card = await fetch(`${a2a.a2aUrl(target.id)}/.well-known/agent-card.json`, {
      headers: { authorization: `Bearer ${caller.mcpToken}` },
    });
    const refresh = await world.api('POST', `/relay/v1/agents/${target.id}/agent-card/refresh`);

    expect(card.status).toBe(502);
    expect(refresh.status).toBe(502);
    expect(refresh.body).toMatchObject({ detail: expect.stringContaining('HTTP 404') });
  });
});
