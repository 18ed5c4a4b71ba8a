import { AgentClient } from '../api/agent-client';
import { readBody } from '../auth/token-provider';
import { AgentInfo, LlmGatewaySubscription, McpServerInfo, Subscription } from '../models/models';
import { DirectorySearch } from './directory-search';

export const DIRECTORY_REFRESH_INTERVAL_MS = 60_000;

export interface DirectorySnapshot {
  agents: AgentInfo[];
  mcpServers: McpServerInfo[];
  llmGateways: LlmGatewaySubscription[];
  refreshedAt: number;
}

export type DirectoryListener = (snapshot: DirectorySnapshot) => void;

/** Reachable agents are named by their card through the relay (D38). */
export class AgentDirectory {
  private current: DirectorySnapshot = {
    agents: [],
    mcpServers: [],
    llmGateways: [],
    refreshedAt: 0,
  };
  private readonly listeners = new Set<DirectoryListener>();
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<DirectorySnapshot>;
  /**
   * Finds agents and MCP servers by skill, tag, capability, media mode, tool or free text beyond
   * the ones already subscribed to (D47, D59): `directory.search.agents({ q: 'translate' })`.
   */
  readonly search: DirectorySearch;

  constructor(
    private readonly client: AgentClient,
    private readonly intervalMs: number = DIRECTORY_REFRESH_INTERVAL_MS,
  ) {
    this.search = new DirectorySearch(client);
  }

  get snapshot(): DirectorySnapshot {
    return this.current;
  }

  get agents(): AgentInfo[] {
    return this.current.agents;
  }

  get mcpServers(): McpServerInfo[] {
    return this.current.mcpServers;
  }

  get llmGateways(): LlmGatewaySubscription[] {
    return this.current.llmGateways;
  }

  onChange(listener: DirectoryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  refresh(): Promise<DirectorySnapshot> {
    this.inFlight ??= this.read().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** Refreshes now and every interval; a failed periodic read keeps the last snapshot. */
  async start(): Promise<DirectorySnapshot> {
    this.stop();
    this.timer = setInterval(() => {
      this.refresh().catch(() => undefined);
    }, this.intervalMs);
    this.timer.unref();
    return this.refresh();
  }

  stop(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private async read(): Promise<DirectorySnapshot> {
    const [subscriptions, mcpServers, llmGateways] = await Promise.all([
      this.client.listSubscriptions(),
      this.client.listMcpServers(),
      this.client.listLlmGatewaySubscriptions(),
    ]);
    const agents = await this.agentsOf(subscriptions);
    this.current = { agents, mcpServers, llmGateways, refreshedAt: Date.now() };
    for (const listener of this.listeners) {
      listener(this.current);
    }
    return this.current;
  }

  private async agentsOf(subscriptions: Subscription[]): Promise<AgentInfo[]> {
    const known = new Map(this.current.agents.map((agent) => [agent.agentId, agent]));
    const targets = subscriptions.filter((s) => s.kind === 'AGENT_TO_AGENT').map((s) => s.targetId);
    return Promise.all(
      [...new Set(targets)].map(async (agentId) => {
        const previous = known.get(agentId);
        return previous && previous.name !== agentId ? previous : this.describeAgent(agentId);
      }),
    );
  }

  private async describeAgent(agentId: string): Promise<AgentInfo> {
    const agentCardUrl = `${this.client.config.baseUrl}/relay/a2a/${agentId}/.well-known/agent-card.json`;
    try {
      const response = await this.client.governedFetch('svc:api')(agentCardUrl, { method: 'GET' });
      const card = response.ok ? await readBody(response) : undefined;
      if (
        card &&
        typeof card === 'object' &&
        typeof (card as { name?: unknown }).name === 'string'
      ) {
        const { name, description } = card as { name: string; description?: unknown };
        return {
          agentId,
          name,
          ...(typeof description === 'string' ? { description } : {}),
          agentCardUrl,
        };
      }
    } catch {
      // The card is a courtesy; the subscription alone makes the agent reachable.
    }
    return { agentId, name: agentId, agentCardUrl };
  }
}
