import { randomUUID } from 'node:crypto';

import { Role } from '@a2a-js/sdk';
import {
  Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';

import { MCP_BASE_URL } from '../mcp/mcp-platform';
import { Json, McpWorld, TestAgent } from '../mcp/mcp-world';

/**
 * The A2A side of a test tenant: target agents registered with their card URL, AGENT_TO_AGENT
 * subscriptions, and the official SDK's client as a calling agent would build it.
 */
export class A2aWorld {
  constructor(readonly world: McpWorld) {}

  /** An agent of the tenant whose A2A card is at `cardUrl` (D38), with optional extras (D37). */
  async target(cardUrl: string, extra: Json = {}): Promise<TestAgent> {
    const agent = await this.world.agent();
    await this.world.ok('PATCH', `/relay/v1/agents/${agent.id}`, {
      agentCardUrl: cardUrl,
      ...extra,
    });
    return agent;
  }

  /** D32: `sourceId` may call `targetId` over A2A. */
  async subscribe(sourceId: string, targetId: string): Promise<string> {
    const subscription = await this.world.ok<{ id: string }>('POST', '/relay/v1/subscriptions', {
      kind: 'AGENT_TO_AGENT',
      sourceId,
      targetId,
    });
    return subscription.id;
  }

  /** `{base}/relay/a2a/{agentId}` at the platform's local address. */
  a2aUrl(agentId: string): string {
    return `${this.world.platform.baseUrl}/relay/a2a/${agentId}`;
  }

  /**
   * A fetch as the calling agent's runtime has it: its relay token on every request, and the
   * public base URL (`http://agp.test`, what cards name) resolved to the platform under test.
   */
  fetchAs(caller: TestAgent, correlationId: string): typeof fetch {
    const base = this.world.platform.baseUrl;
    return (input, init) => {
      const url = String(input instanceof Request ? input.url : input).replace(MCP_BASE_URL, base);
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${caller.mcpToken}`);
      headers.set('x-correlation-id', correlationId);
      return fetch(url, { ...init, headers });
    };
  }

  /** The SDK's client, built from the card the relay serves for `targetId`. */
  async client(caller: TestAgent, targetId: string, correlationId = randomUUID()): Promise<Client> {
    const fetchImpl = this.fetchAs(caller, correlationId);
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    });
    // The card path is relative to the agent URL: `{agent url}/.well-known/agent-card.json`.
    return factory.createFromUrl(`${this.a2aUrl(targetId)}/`);
  }

  /** A raw JSON-RPC POST to the A2A path (what a client without the SDK sends). */
  async post(caller: TestAgent | string, targetId: string, body: unknown, headers: Json = {}) {
    const token = typeof caller === 'string' ? caller : caller.mcpToken;
    const response = await fetch(this.a2aUrl(targetId), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'a2a-version': '1.0',
        ...(headers as Record<string, string>),
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Json };
  }
}

/** A user message of the SDK's shape, with one text part. */
export function userMessage(text: string, taskId = ''): Parameters<Client['sendMessage']>[0] {
  return {
    tenant: '',
    message: {
      messageId: randomUUID(),
      contextId: '',
      taskId,
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text', value: text },
          metadata: undefined,
          filename: '',
          mediaType: '',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
}

/** The JSON-RPC error an SDK call failed with: its code and data (D33). */
export async function a2aRefusalOf(
  promise: Promise<unknown>,
): Promise<{ code: number; message: string; data?: Json }> {
  try {
    await promise;
  } catch (error) {
    // Inside a stream the SDK wraps the JSON-RPC error it read as the cause of its own.
    const raw = error as { envelopeCode?: number; cause?: unknown };
    const e = (raw.envelopeCode === undefined && raw.cause ? raw.cause : raw) as {
      envelopeCode?: number;
      message: string;
      data?: Json;
    };
    if (typeof e.envelopeCode === 'number') {
      return { code: e.envelopeCode, message: e.message, ...(e.data ? { data: e.data } : {}) };
    }
    throw error;
  }
  throw new Error('the call was not refused');
}
