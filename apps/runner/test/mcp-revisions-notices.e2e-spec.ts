import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { LOG_POLICY } from './mcp/mcp-policies';
import { Json, McpWorld } from './mcp/mcp-world';
import { AnyClient, Revision, legacyClient, modernClient } from './mcp/revision-clients';
import {
  DOC_URI,
  RevisionServer,
  startLegacyServer,
  startModernServer,
} from './mcp/revision-servers';

const PAIRINGS: [Revision, Revision][] = [
  ['2025-11-25', '2025-11-25'],
  ['2025-11-25', '2026-07-28'],
  ['2026-07-28', '2025-11-25'],
  ['2026-07-28', '2026-07-28'],
];

const START: Record<Revision, () => Promise<RevisionServer>> = {
  '2025-11-25': startLegacyServer,
  '2026-07-28': startModernServer,
};

/**
 * Issue 35, what was left of item 1 (T103, T104): log levels and resource subscriptions in all
 * four pairings of the official SDKs' clients and servers, each message audited as a hop; and the
 * relay's own probes of a server's revisions in the trail, with the platform as their source.
 */
describe('MCP log levels, resource subscriptions and probes across revisions', () => {
  let platform: McpPlatform;
  let world: McpWorld;

  beforeAll(async () => {
    platform = await startMcpPlatform('embedded');
    world = await McpWorld.create(platform);
  });

  afterAll(async () => {
    await platform?.close();
  });

  /** A server of its own per test: the relay learns its revisions afresh (T98, T103). */
  async function connected(
    clientRevision: Revision,
    serverRevision: Revision,
    correlationId: string,
  ): Promise<{ client: AnyClient; server: RevisionServer }> {
    const server = await START[serverRevision]();
    const serverId = await world.mcpServer(server.url);
    const agent = await world.agent();
    await world.subscribe(agent.id, serverId);
    await world.bindToAgent(agent.id, LOG_POLICY);
    const connect = clientRevision === '2025-11-25' ? legacyClient : modernClient;
    return { client: await connect(world.mcpUrl(serverId), agent, correlationId), server };
  }

  it.each(PAIRINGS)(
    'should carry a %s client’s log level and resource subscription to a %s server, each message audited',
    async (clientRevision, serverRevision) => {
      const correlationId = randomUUID();
      const { client, server } = await connected(clientRevision, serverRevision, correlationId);
      try {
        const unleveled = await client.callLogged('log');
        const unleveledLogs = [...client.logs];
        const leveled = await client.callLogged('log', 'warning');
        await client.subscribe(DOC_URI);
        // The subscription reaches the server's stream within a second (T104): touched until seen.
        await eventually(() => {
          server.touch(DOC_URI);
          expect(client.updated).toContain(DOC_URI);
        }, 100);
        await client.unsubscribe(DOC_URI);

        expect([unleveled, leveled]).toEqual(['logged', 'logged']);
        if (clientRevision === '2026-07-28') {
          // 2026-07-28: no log level in `_meta`, no log message.
          expect(unleveledLogs).toEqual([]);
        }
        expect(client.logs.slice(unleveledLogs.length)).toEqual(['warning line']);
        const methods = [
          'notifications/message',
          'notifications/resources/updated',
          ...(clientRevision === '2025-11-25' ? ['logging/setLevel', 'resources/unsubscribe'] : []),
          ...(clientRevision === '2025-11-25' || serverRevision === '2025-11-25'
            ? ['resources/subscribe']
            : ['subscriptions/listen']),
        ];
        const trace = await world.trace(correlationId, (items) =>
          methods.every((m) => items.some((e) => (e.details as Json).method === m)),
        );
        const logHop = trace.find((e) => (e.details as Json).method === 'notifications/message');
        expect(logHop).toMatchObject({
          eventType: 'COMMUNICATION_AUDIT',
          details: expect.objectContaining({ direction: 'RESPONSE' }),
        });
      } finally {
        await client.close();
        await server.close();
      }
    },
  );

  it.each<Revision>(['2025-11-25', '2026-07-28'])(
    "should record the relay's probes of a %s server's revisions as hops the platform sent, in the trail of the call that needed them",
    async (serverRevision) => {
      const correlationId = randomUUID();
      const clientRevision = serverRevision === '2025-11-25' ? '2026-07-28' : '2025-11-25';
      const { client, server } = await connected(clientRevision, serverRevision, correlationId);
      try {
        const probes = (items: Json[]): Json[] =>
          items.filter((e) => (e.actor as Json | undefined)?.type === 'SERVICE');
        const trace = await world.trace(correlationId, (items) => probes(items).length >= 4);

        const seen = probes(trace).map((e) => {
          const details = e.details as Json;
          return `${String(details.method)} ${String(details.direction)}`;
        });
        expect(seen.sort()).toEqual([
          'initialize REQUEST',
          'initialize RESPONSE',
          'server/discover REQUEST',
          'server/discover RESPONSE',
        ]);
        const request = probes(trace).find((e) => (e.details as Json).direction === 'REQUEST');
        expect(request).toMatchObject({
          action: 'LOG',
          source: { type: 'SERVICE', name: 'relay' },
        });
      } finally {
        await client.close();
        await server.close();
      }
    },
  );
});
