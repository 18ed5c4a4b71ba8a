import { randomUUID } from 'node:crypto';
import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

import type { AgentCard, Message } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';

import { ADMIN_MOUNT_PATH, adminRequestListener } from '../admin/node-adapter';
import { correlationIdOf, runWithCorrelationId } from '../http/correlation';
import {
  LICENCE_HEADER,
  LicenceVerifierOptions,
  licenceVerifier,
} from '../licences/verify-licence';
import { AgentRuntime } from '../runtime/agent-runtime';

export type AgentResponder = (text: string) => Promise<string>;

export interface ServeAgentOptions {
  name: string;
  description?: string;
  version?: string;
  respond: AgentResponder;
  runtime?: AgentRuntime;
  host?: string;
  port?: number;
  publicUrl?: string;
  /**
   * MK28: a marketplace listing's agent refuses calls whose licence (`x-agp-licence`, put there
   * by the relay) does not verify offline against the platform's JWKS: JSON-RPC −31008.
   */
  licence?: LicenceVerifierOptions;
}

export interface ServedAgent {
  url: string;
  card: AgentCard;
  close(): Promise<void>;
}

function textOf(message: Message): string {
  return message.parts
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .filter((text) => text.length > 0)
    .join('\n');
}

/** An A2A (protocol 1.0) message of one text part; role 1 is the user, 2 the agent. */
export function textMessage(text: string, role: 1 | 2, contextId = ''): Message {
  return {
    role,
    messageId: randomUUID(),
    parts: [
      {
        content: { $case: 'text', value: text },
        metadata: undefined,
        filename: '',
        mediaType: 'text/plain',
      },
    ],
    taskId: '',
    contextId,
    extensions: [],
    metadata: {},
    referenceTaskIds: [],
  };
}

/** Each message answered with one message (the framework's run), correlation id kept (D13). */
class ResponderExecutor implements AgentExecutor {
  constructor(private readonly respond: AgentResponder) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const reply = await this.respond(textOf(context.userMessage));
    bus.publish({ kind: 'message', data: textMessage(reply, 2, context.contextId) });
    bus.finished();
  }

  cancelTask = async (): Promise<void> => undefined;
}

/**
 * Serves an agent over A2A (JSON-RPC, protocol 1.0) with its agent card at
 * `/.well-known/agent-card.json`, and its admin surface at `/admin` when a runtime is given (D38).
 */
export async function serveAgent(options: ServeAgentOptions): Promise<ServedAgent> {
  const [{ default: express }, server, serverExpress, core] = await Promise.all([
    import('express'),
    import('@a2a-js/sdk/server'),
    import('@a2a-js/sdk/server/express'),
    import('@a2a-js/sdk'),
  ]);
  const app = express();
  if (options.runtime) {
    app.use(adminRequestListener(options.runtime.admin, ADMIN_MOUNT_PATH));
  }
  app.use((request, _response, next) => {
    runWithCorrelationId(correlationIdOf(request.headers), next);
  });
  if (options.licence) {
    const verify = licenceVerifier(options.licence);
    app.post('/', (request, response, next) => {
      const header = request.headers[LICENCE_HEADER];
      void verify(typeof header === 'string' ? header : undefined).then((verdict) => {
        if (verdict.valid) {
          next();
          return;
        }
        // D60: the platform's refusal code and name, before the agent does anything.
        response.status(200).json({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -31008,
            message: 'licence invalid',
            data: { agpCode: 'licence_invalid', reasons: [verdict.reason] },
          },
        });
      }, next);
    });
  }
  const http: Server = createServer(app);
  await new Promise<void>((resolve) =>
    http.listen(options.port ?? 8080, options.host ?? '0.0.0.0', resolve),
  );
  const { port } = http.address() as AddressInfo;
  const url =
    options.publicUrl ??
    `http://${options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1'}:${port}`;
  const card: AgentCard = {
    name: options.name,
    description: options.description ?? options.name,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: core.A2A_PROTOCOL_VERSION },
    ],
    version: options.version ?? '0.1.0',
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
    skills: [],
    documentationUrl: '',
    signatures: [],
  } as unknown as AgentCard;
  const requestHandler = new server.DefaultRequestHandler(
    card,
    new server.InMemoryTaskStore(),
    new ResponderExecutor(options.respond),
  );
  app.use(
    `/${core.AGENT_CARD_PATH}`,
    serverExpress.agentCardHandler({ agentCardProvider: requestHandler }),
  );
  app.use(
    serverExpress.jsonRpcHandler({
      requestHandler,
      userBuilder: serverExpress.UserBuilder.noAuthentication,
    }),
  );
  return {
    url,
    card,
    close: async () => {
      options.runtime?.stop();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
