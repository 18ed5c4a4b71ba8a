import type { Client } from '@a2a-js/sdk/client';

import { AgentClient } from '../api/agent-client';
import { PollTaskOptions, pollTask } from './task-polling';

export const A2A_CLIENT_TIMEOUT_MS = 300_000;

export interface A2AClientOptions {
  /** Forward the served request's `X-Correlation-Id` (D13); on by default. */
  forwardCorrelationId?: boolean;
  timeoutMs?: number;
}

/**
 * Official A2A clients (`@a2a-js/sdk`) for the agents this agent may call, through the relay
 * (`{base_url}/relay/a2a/{agentId}`, D20, D38): the card read from the relay, every call with the
 * agent's `mcp:call` token (D8: the traffic paths take the relay audience only), the library's
 * request behaviour and a 300 s timeout. Cards of protocol 0.3 and 1.0 are both understood.
 */
export class A2AClientFactory {
  constructor(
    private readonly agent: AgentClient,
    private readonly options: A2AClientOptions = {},
  ) {}

  relayUrl(agentId: string): string {
    return `${this.agent.config.baseUrl}/relay/a2a/${agentId}`;
  }

  async create(agentId: string): Promise<Client> {
    const fetchImpl = this.agent.governedFetch(
      'mcp:call',
      this.options.forwardCorrelationId ?? true,
      this.options.timeoutMs ?? A2A_CLIENT_TIMEOUT_MS,
    ) as typeof fetch;
    const legacyCompat = { enabled: true };
    // Loaded on first use: the SDK pulls in ESM-only modules that an agent using only MCP never needs.
    const {
      ClientFactory,
      ClientFactoryOptions,
      DefaultAgentCardResolver,
      JsonRpcTransportFactory,
    } = await import('@a2a-js/sdk/client');
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
      }),
    );
    const relayUrl = this.relayUrl(agentId);
    // The trailing slash keeps the agent id: the card path resolves relative to the address.
    const card = await new DefaultAgentCardResolver({ fetchImpl, legacyCompat }).resolve(
      `${relayUrl}/`,
    );
    // S12: the card names the relay under the platform's public address; the calls go to the relay
    // at the configured base address, so they are governed whatever the card says.
    const pinned = card.supportedInterfaces
      .filter((i) => i.protocolBinding.toUpperCase() === 'JSONRPC')
      .map((i) => ({ ...i, url: relayUrl }));
    return factory.createFromAgentCard({ ...card, supportedInterfaces: pinned });
  }

  /** Polls a task of `client` with `tasks/get` until it is terminal (5 s interval, 600 s at most). */
  waitForTask(
    client: Client,
    taskId: string,
    options?: PollTaskOptions,
  ): ReturnType<Client['getTask']> {
    return pollTask(taskId, (id) => client.getTask({ id, tenant: '' }), options);
  }
}
