import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database } from '@agp/database';
import { HttpProblem } from '@agp/http';

import { PUBLIC_BASE_URL } from '../config/relay-config.module';
import { RELAY_DATABASE } from '../database/tokens';
import { DiscoveryRepository } from './discovery.repository';
import { DiscoveryEntry, DiscoveryKind, DiscoveryResult, SearchCursor } from './discovery.types';
import {
  DiscoverAgentsQueryDto,
  DiscoverMcpServersQueryDto,
  DiscoveryQueryDto,
} from './dto/discovery-query.dto';
import { DiscoveredAgent, DiscoveredMcpServer, DiscoveryPage } from './dto/discovery-response';
import { decodeCursor, encodeCursor } from './search-query';
import { viewerOf } from './visibility';

/** Issue 40, D47, D59: agents and MCP servers found by what they can do, as the caller may see. */
@Injectable()
export class DiscoveryService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(PUBLIC_BASE_URL) private readonly baseUrl: string,
    private readonly discovery: DiscoveryRepository,
  ) {}

  async agents(
    ctx: RequestContext,
    query: DiscoverAgentsQueryDto,
  ): Promise<DiscoveryPage<DiscoveredAgent>> {
    // DS7: AGENT_METADATA:READ reads agents' metadata, so it may search it too.
    const viewer = viewerOf(ctx, ['REGISTRY', 'AGENT_METADATA']);
    const result = await this.search(ctx, 'AGENT', viewer, query);
    return pageOf(result, (entry) => this.toAgent(entry));
  }

  async mcpServers(
    ctx: RequestContext,
    query: DiscoverMcpServersQueryDto,
  ): Promise<DiscoveryPage<DiscoveredMcpServer>> {
    const viewer = viewerOf(ctx, ['MCP_REGISTRY']);
    const result = await this.search(ctx, 'MCP_SERVER', viewer, query);
    return pageOf(result, (entry) => this.toMcpServer(entry));
  }

  private search(
    ctx: RequestContext,
    kind: DiscoveryKind,
    viewer: ReturnType<typeof viewerOf>,
    query: DiscoveryQueryDto,
  ): Promise<DiscoveryResult> {
    const after = query.cursor === undefined ? undefined : cursorOf(query.cursor);
    const { cursor: _cursor, limit, ...filters } = query;
    return this.database.inTenant(ctx.tenantId, (tx) =>
      this.discovery.search(tx, ctx.tenantId, kind, viewer, filters, limit, after),
    );
  }

  private toAgent(entry: DiscoveryEntry): DiscoveredAgent {
    const { summary } = entry;
    return {
      id: entry.id,
      name: entry.name,
      ...(entry.description ? { description: entry.description } : {}),
      visibility: entry.visibility,
      agentCardUrl: `${this.baseUrl}/relay/a2a/${entry.id}/.well-known/agent-card.json`,
      skills: Array.isArray(summary.skills) ? (summary.skills as DiscoveredAgent['skills']) : [],
      capabilities: isObject(summary.capabilities) ? summary.capabilities : {},
      defaultInputModes: strings(summary.defaultInputModes),
      defaultOutputModes: strings(summary.defaultOutputModes),
      score: entry.rank,
    };
  }

  private toMcpServer(entry: DiscoveryEntry): DiscoveredMcpServer {
    const { summary } = entry;
    return {
      id: entry.id,
      name: entry.name,
      ...(entry.description ? { description: entry.description } : {}),
      visibility: entry.visibility,
      ...(typeof summary.transport === 'string' ? { transport: summary.transport } : {}),
      tools: strings(summary.tools),
      relayUrl: `${this.baseUrl}/relay/mcp/${entry.id}`,
      score: entry.rank,
    };
  }
}

function cursorOf(value: string): SearchCursor {
  const cursor = decodeCursor(value);
  if (!cursor) {
    throw HttpProblem.validation([
      { field: 'cursor', message: 'cursor must be a nextCursor this API answered' },
    ]);
  }
  return cursor;
}

function pageOf<T>(result: DiscoveryResult, map: (entry: DiscoveryEntry) => T): DiscoveryPage<T> {
  return {
    items: result.entries.map(map),
    nextCursor: result.next ? encodeCursor(result.next) : null,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
