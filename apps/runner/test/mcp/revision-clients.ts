import {
  LOG_LEVEL_META_KEY,
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  LoggingLevel,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '@agp/testing';

import { Json, TestAgent } from './mcp-world';

export type Revision = '2025-11-25' | '2026-07-28';

/** What a test does with a client of either SDK generation. */
export interface AnyClient {
  revision: string | undefined;
  toolNames(): Promise<string[]>;
  call(name: string, args: Json): Promise<string>;
  /** Resolves once a tools/list_changed notification arrived after this call. */
  listChanged(): Promise<void>;
  /** A 2026-07-28 client's listen stream: how it ended. */
  listenClosed?: Promise<string>;
  /** The `data` of each log message received. */
  logs: unknown[];
  /** Calls a tool at a log level: `logging/setLevel` first (2025), `_meta` (2026), or none. */
  callLogged(name: string, level?: string): Promise<string>;
  /** The URI of each `notifications/resources/updated` received. */
  updated: string[];
  /** `resources/subscribe` (2025), or a listen stream with `resourceSubscriptions` (2026). */
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  close(): Promise<void>;
}

/** How a test routes a client's requests (two relay replicas without stickiness, T101). */
export interface ClientOptions {
  fetch?: typeof fetch;
}

export async function legacyClient(
  url: string,
  agent: TestAgent,
  correlationId: string,
  options: ClientOptions = {},
): Promise<AnyClient> {
  const client = new LegacyClient(
    { name: 'legacy-agent', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, () => ({
    action: 'accept',
    content: { confirm: true },
  }));
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
  const logs: unknown[] = [];
  const updated: string[] = [];
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void logs.push(n.params.data),
  );
  client.setNotificationHandler(
    ResourceUpdatedNotificationSchema,
    (n) => void updated.push(n.params.uri),
  );
  const transport = new LegacyTransport(new URL(url), {
    ...options,
    requestInit: {
      headers: { authorization: `Bearer ${agent.mcpToken}`, 'x-correlation-id': correlationId },
    },
  });
  await client.connect(transport);
  return {
    revision: transport.protocolVersion,
    toolNames: async () => (await client.listTools()).tools.map((t) => t.name).sort(),
    call: async (name, args) => textOf(await client.callTool({ name, arguments: args })),
    listChanged: nextChange(() => changes),
    logs,
    callLogged: async (name, level) => {
      if (level) {
        await client.setLoggingLevel(level as LoggingLevel);
      }
      return textOf(await client.callTool({ name, arguments: {} }));
    },
    updated,
    subscribe: async (uri) => void (await client.subscribeResource({ uri })),
    unsubscribe: async (uri) => void (await client.unsubscribeResource({ uri })),
    close: () => client.close(),
  };
}

export async function modernClient(
  url: string,
  agent: TestAgent,
  correlationId: string,
  options: ClientOptions = {},
): Promise<AnyClient> {
  const client = new ModernClient(
    { name: 'modern-agent', version: '2.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', () => ({
    action: 'accept',
    content: { confirm: true },
  }));
  let changes = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => void changes++);
  const logs: unknown[] = [];
  const updated: string[] = [];
  client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params.data));
  client.setNotificationHandler(
    'notifications/resources/updated',
    (n) => void updated.push(n.params.uri),
  );
  const resourceListens = new Map<string, { close(): Promise<void> }>();
  await client.connect(
    new ModernTransport(new URL(url), {
      ...options,
      requestInit: {
        headers: { authorization: `Bearer ${agent.mcpToken}`, 'x-correlation-id': correlationId },
      },
    }),
  );

  const subscription = await client.listen({ toolsListChanged: true });

  return {
    revision: client.getNegotiatedProtocolVersion(),
    listenClosed: subscription.closed,
    toolNames: async () => (await client.listTools()).tools.map((t) => t.name).sort(),
    call: async (name, args) => textOf(await client.callTool({ name, arguments: args })),
    listChanged: nextChange(() => changes),
    logs,
    callLogged: async (name, level) =>
      textOf(
        await client.callTool({
          name,
          arguments: {},
          ...(level ? { _meta: { [LOG_LEVEL_META_KEY]: level } } : {}),
        }),
      ),
    updated,
    subscribe: async (uri) =>
      void resourceListens.set(uri, await client.listen({ resourceSubscriptions: [uri] })),
    unsubscribe: async (uri) => {
      await resourceListens.get(uri)?.close();
      resourceListens.delete(uri);
    },
    close: async () => {
      for (const listen of resourceListens.values()) {
        await listen.close();
      }
      await subscription.close();
      await client.close();
    },
  };
}

/** Resolves once the count has grown past what it was when called. */
function nextChange(count: () => number): () => Promise<void> {
  return () => {
    const before = count();
    return eventually(() => expect(count()).toBeGreaterThan(before), 100).then(() => undefined);
  };
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}
