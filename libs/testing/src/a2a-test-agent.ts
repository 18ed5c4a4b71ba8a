import {
  IncomingHttpHeaders,
  IncomingMessage,
  Server,
  ServerResponse,
  createServer,
} from 'node:http';
import { AddressInfo } from 'node:net';

import { AgentCard, Part, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  AgentExecutor,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  ExecutionEventBus,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  RequestContext,
  ServerCallContext,
} from '@a2a-js/sdk/server';
import {
  LegacyJsonRpcTransportHandler,
  createLegacyAwarePushNotificationSender,
} from '@a2a-js/sdk/compat/v0_3/server';

/** What the agent received for one message, as its executor saw it (after the relay). */
export interface ReceivedA2aMessage {
  text: string;
  headers: IncomingHttpHeaders;
  metadata?: Record<string, unknown>;
}

export interface A2aTestAgentOptions {
  /** Keep no record of messages (the benchmark, whose messages would otherwise pile up). */
  record?: boolean;
  /** Send push notifications (the card says so, and the SDK's own store and sender send them). */
  pushNotifications?: { reach: (url: string) => string };
  // Also speak protocol 0.3, with the SDK's own compat handler, to requests whose `A2A-Version` is
  // 0.3 or absent (as the SDK's `legacyCompat` routes them), and send a configuration set in 0.3
  // its pushes as 0.3 bodies (the SDK's legacy-aware sender).
  legacyCompat?: boolean;
}

export interface A2aTestAgent {
  cardUrl: string;
  url: string;
  /** The card it serves now; a test changes it to see a refresh report the change. */
  card: AgentCard;
  received: ReceivedA2aMessage[];
  /** HTTP requests received so far (a refused caller must add none). */
  requestCount(): number;
  release(): void;
  close(): Promise<void>;
}

/** An AWS-style access key id that a `secret` message is answered with. */
export const A2A_TEST_SECRET = 'AKIAIOSFODNN7EXAMPLE';
export const A2A_TEST_SSN = '123-45-6789';

function textPart(value: string): Part {
  return { content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' };
}

/** A message ending `with data {json}` is answered with that JSON as a data part too. */
function answerParts(text: string): Part[] {
  const at = text.indexOf('with data ');
  const parts = [textPart(answerTo(text))];
  if (at < 0) {
    return parts;
  }
  const data = JSON.parse(text.slice(at + 'with data '.length)) as Record<string, unknown>;
  return [
    ...parts,
    { content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: '' },
  ];
}

/** `wait` keeps the task working until {@link A2aTestAgent.release}. */
function answerTo(text: string): string {
  if (text.includes('secret')) {
    return `the deploy key is ${A2A_TEST_SECRET}`;
  }
  if (text.includes('customer')) {
    return `Ada Example, SSN ${A2A_TEST_SSN}`;
  }
  return `echo: ${text}`;
}

class TestExecutor implements AgentExecutor {
  private readonly waiting = new Set<() => void>();
  private readonly cancelled = new Map<string, () => void>();

  constructor(
    private readonly received: ReceivedA2aMessage[] | undefined,
    private readonly headersOf: (context: RequestContext) => IncomingHttpHeaders,
  ) {}

  release(): void {
    this.waiting.forEach((resolve) => resolve());
    this.waiting.clear();
  }

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const message = context.userMessage;
    const text = message.parts
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join('\n');
    this.received?.push({
      text,
      headers: this.headersOf(context),
      ...(message.metadata ? { metadata: message.metadata } : {}),
    });
    const ids = { taskId: context.taskId, contextId: context.contextId };
    bus.publish(
      AgentEvent.task({
        id: ids.taskId,
        contextId: ids.contextId,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
        artifacts: [],
        history: [message],
        metadata: undefined,
      }),
    );
    if (text.includes('wait') || text.includes('cancel-me')) {
      const isCancelled = await new Promise<boolean>((resolve) => {
        this.waiting.add(() => resolve(false));
        this.cancelled.set(ids.taskId, () => resolve(true));
      });
      this.cancelled.delete(ids.taskId);
      if (isCancelled) {
        this.status(bus, ids, TaskState.TASK_STATE_CANCELED);
        bus.finished();
        return;
      }
    }
    bus.publish(
      AgentEvent.artifactUpdate({
        ...ids,
        artifact: {
          artifactId: 'answer',
          name: 'answer',
          description: '',
          parts: answerParts(text),
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    this.status(bus, ids, TaskState.TASK_STATE_COMPLETED);
    bus.finished();
  }

  cancelTask(taskId: string): Promise<void> {
    this.cancelled.get(taskId)?.();
    return Promise.resolve();
  }

  private status(
    bus: ExecutionEventBus,
    ids: { taskId: string; contextId: string },
    state: TaskState,
  ): void {
    bus.publish(
      AgentEvent.statusUpdate({
        ...ids,
        status: { state, message: undefined, timestamp: undefined },
        metadata: undefined,
      }),
    );
  }
}

/** The SDK's in-memory store, with the URL a push is sent to made reachable. */
class ReachingPushStore extends InMemoryPushNotificationStore {
  constructor(private readonly reach: (url: string) => string) {
    super();
  }

  override async loadWithMetadata(
    ...args: Parameters<InMemoryPushNotificationStore['loadWithMetadata']>
  ): ReturnType<InMemoryPushNotificationStore['loadWithMetadata']> {
    const stored = await super.loadWithMetadata(...args);
    return stored.map((entry) => ({
      ...entry,
      config: { ...entry.config, url: this.reach(entry.config.url) },
    }));
  }
}

function cardOf(base: string, pushNotifications: boolean): AgentCard {
  return {
    name: 'a2a-test-agent',
    description: 'answers, echoes and keeps tasks working for the relay tests',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${base}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
    ],
    provider: undefined,
    capabilities: {
      streaming: true,
      pushNotifications,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'echo',
        name: 'echo',
        description: 'echoes a message',
        tags: ['test'],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A real A2A agent built on the official SDK's server classes (`DefaultRequestHandler`,
 * `JsonRpcTransportHandler`), serving its card and A2A JSON-RPC (answers as JSON or SSE) on
 * 127.0.0.1, for the A2A relay's interoperability tests and benchmark.
 */
export async function startA2aTestAgent(options: A2aTestAgentOptions = {}): Promise<A2aTestAgent> {
  const received: ReceivedA2aMessage[] = [];
  const headersByContext = new WeakMap<ServerCallContext, IncomingHttpHeaders>();
  const executor = new TestExecutor(
    options.record === false ? undefined : received,
    (context) => headersByContext.get(context.context) ?? {},
  );
  let requests = 0;
  // Both need the port, known once the server listens.
  const state: {
    card?: AgentCard;
    transport?: JsonRpcTransportHandler;
    legacy?: LegacyJsonRpcTransportHandler;
  } = {};
  const server: Server = createServer((request, response) => {
    requests += 1;
    void serve(request, response).catch(() => {
      if (!response.headersSent) {
        response.writeHead(500).end();
      }
    });
  });
  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === 'GET' && request.url === '/.well-known/agent-card.json') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(state.card));
      return;
    }
    if (request.method !== 'POST' || request.url !== '/a2a') {
      response.writeHead(404).end();
      return;
    }
    const header = request.headers['a2a-version'];
    const isLegacy =
      options.legacyCompat === true && (header === undefined || /^0\.3(\.|$)/.test(String(header)));
    const version = isLegacy ? '0.3' : header;
    const context = new ServerCallContext({
      ...(typeof version === 'string' ? { requestedVersion: version } : {}),
    });
    headersByContext.set(context, request.headers);
    const transport = isLegacy ? state.legacy! : state.transport!;
    const result = await transport.handle(await bodyOf(request), context);
    if (Symbol.asyncIterator in result) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for await (const event of result) {
        response.write(`data: ${JSON.stringify(event)}\n\n`);
      }
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.card = cardOf(base, options.pushNotifications !== undefined);
  const pushStore = options.pushNotifications
    ? new ReachingPushStore(options.pushNotifications.reach)
    : undefined;
  const sender = !pushStore
    ? undefined
    : options.legacyCompat
      ? createLegacyAwarePushNotificationSender(pushStore)
      : new DefaultPushNotificationSender(pushStore);
  const handler = new DefaultRequestHandler(
    state.card,
    new InMemoryTaskStore(),
    executor,
    undefined,
    pushStore,
    sender,
  );
  state.transport = new JsonRpcTransportHandler(handler);
  state.legacy = options.legacyCompat ? new LegacyJsonRpcTransportHandler(handler) : undefined;
  return {
    cardUrl: `${base}/.well-known/agent-card.json`,
    url: `${base}/a2a`,
    get card(): AgentCard {
      return state.card!;
    },
    set card(next: AgentCard) {
      state.card = next;
    },
    received,
    requestCount: () => requests,
    release: () => executor.release(),
    close: async () => {
      executor.release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
