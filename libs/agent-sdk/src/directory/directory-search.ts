import { AgentClient } from '../api/agent-client';
import {
  AgentDiscoveryQuery,
  DiscoveredAgent,
  DiscoveredMcpServer,
  DiscoveryPage,
  McpServerDiscoveryQuery,
  discoveryQueryString,
  parseDiscoveredAgent,
  parseDiscoveredMcpServer,
  parseDiscoveryPage,
} from '../models/discovery';

/** Past this many pages a walk stops: 100 pages of 100 is the subscriptions' bound too. */
export const DISCOVERY_MAX_PAGES = 100;

/**
 * The relay's discovery (D47, D59) as the agent's own token sees it: the tenant's INTERNAL and
 * PUBLIC agents and MCP servers, the PRIVATE ones it is subscribed to, and itself.
 */
export class DirectorySearch {
  constructor(private readonly client: AgentClient) {}

  /** One page of agents, best match first (`GET /relay/v1/discovery/agents`). */
  async agents(query: AgentDiscoveryQuery = {}): Promise<DiscoveryPage<DiscoveredAgent>> {
    return parseDiscoveryPage(
      await this.client.request('GET', `/relay/v1/discovery/agents${discoveryQueryString(query)}`),
      parseDiscoveredAgent,
    );
  }

  /** One page of MCP servers, best match first (`GET /relay/v1/discovery/mcp-servers`). */
  async mcpServers(
    query: McpServerDiscoveryQuery = {},
  ): Promise<DiscoveryPage<DiscoveredMcpServer>> {
    return parseDiscoveryPage(
      await this.client.request(
        'GET',
        `/relay/v1/discovery/mcp-servers${discoveryQueryString(query)}`,
      ),
      parseDiscoveredMcpServer,
    );
  }

  /** Every match, following `nextCursor` (at most `maxPages` pages). */
  async allAgents(
    query: Omit<AgentDiscoveryQuery, 'cursor'> = {},
    maxPages = DISCOVERY_MAX_PAGES,
  ): Promise<DiscoveredAgent[]> {
    return walk((cursor) => this.agents({ ...query, cursor }), maxPages);
  }

  async allMcpServers(
    query: Omit<McpServerDiscoveryQuery, 'cursor'> = {},
    maxPages = DISCOVERY_MAX_PAGES,
  ): Promise<DiscoveredMcpServer[]> {
    return walk((cursor) => this.mcpServers({ ...query, cursor }), maxPages);
  }
}

async function walk<T>(
  page: (cursor: string | undefined) => Promise<DiscoveryPage<T>>,
  maxPages: number,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < maxPages; n += 1) {
    const answer = await page(cursor);
    items.push(...answer.items);
    if (!answer.nextCursor) {
      break;
    }
    cursor = answer.nextCursor;
  }
  return items;
}
