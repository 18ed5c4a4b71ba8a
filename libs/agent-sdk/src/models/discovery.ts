import { AgentInfo, AgentVisibility } from './models';
import {
  WireObject,
  asObject,
  optionalNumber,
  optionalString,
  optionalStringArray,
  requiredString,
  ModelParseError,
} from './wire';

/**
 * What the relay's discovery takes (D47, D59): each filter must match exactly, `q` ranks.
 * An agent's skill is found by its id or its name, an MCP server's tool by its name.
 */
export interface DiscoveryQuery {
  /** Free text over names, skills (or tools), tags, descriptions and examples. */
  q?: string;
  skill?: string;
  capability?: string;
  /** The `nextCursor` of the page before. */
  cursor?: string;
  /** Page size, 1 to 100; 20 by default. */
  limit?: number;
}

/** Agents only: MCP tools have no tags nor media modes. */
export interface AgentDiscoveryQuery extends DiscoveryQuery {
  tag?: string;
  /** A media type the agent accepts (`text/plain`). */
  inputMode?: string;
  /** A media type the agent answers in. */
  outputMode?: string;
}

export interface McpServerDiscoveryQuery extends DiscoveryQuery {
  /** A tool name, as `skill`. */
  tool?: string;
}

export interface DiscoveredSkill {
  id?: string;
  name?: string;
  tags?: string[];
}

/** An agent found by search: an AgentInfo with what its card says it can do. */
export interface DiscoveredAgent extends AgentInfo {
  skills: DiscoveredSkill[];
  capabilities: Record<string, unknown>;
  defaultInputModes: string[];
  defaultOutputModes: string[];
  /** How well it matched `q` (0 without `q`); pages come best first. */
  score: number;
}

export interface DiscoveredMcpServer {
  mcpServerId: string;
  name: string;
  description?: string;
  visibility?: AgentVisibility;
  transport?: string;
  tools: string[];
  /** Where to call it through the relay. */
  relayUrl: string;
  score: number;
}

/** One page of a search; `nextCursor` is null on the last. */
export interface DiscoveryPage<T> {
  items: T[];
  nextCursor: string | null;
}

export function parseDiscoveredAgent(value: unknown): DiscoveredAgent {
  const raw = asObject(value, 'DiscoveredAgent');
  const description = optionalString(raw, 'description');
  const visibility = visibilityOf(raw);
  return {
    agentId: requiredString(raw, 'DiscoveredAgent', 'agent_id', 'agentId', 'id'),
    name: requiredString(raw, 'DiscoveredAgent', 'name'),
    ...(description !== undefined ? { description } : {}),
    agentCardUrl: requiredString(raw, 'DiscoveredAgent', 'agent_card_url', 'agentCardUrl'),
    ...(visibility ? { visibility } : {}),
    skills: Array.isArray(raw.skills) ? raw.skills.map(parseSkill) : [],
    capabilities: isObject(raw.capabilities) ? raw.capabilities : {},
    defaultInputModes: optionalStringArray(raw, 'defaultInputModes', 'default_input_modes') ?? [],
    defaultOutputModes:
      optionalStringArray(raw, 'defaultOutputModes', 'default_output_modes') ?? [],
    score: optionalNumber(raw, 'score') ?? 0,
  };
}

export function parseDiscoveredMcpServer(value: unknown): DiscoveredMcpServer {
  const raw = asObject(value, 'DiscoveredMcpServer');
  const description = optionalString(raw, 'description');
  const transport = optionalString(raw, 'transport');
  const visibility = visibilityOf(raw);
  return {
    mcpServerId: requiredString(raw, 'DiscoveredMcpServer', 'mcp_server_id', 'mcpServerId', 'id'),
    name: requiredString(raw, 'DiscoveredMcpServer', 'name'),
    ...(description !== undefined ? { description } : {}),
    ...(visibility ? { visibility } : {}),
    ...(transport !== undefined ? { transport } : {}),
    tools: optionalStringArray(raw, 'tools') ?? [],
    relayUrl: requiredString(raw, 'DiscoveredMcpServer', 'relay_url', 'relayUrl'),
    score: optionalNumber(raw, 'score') ?? 0,
  };
}

export function parseDiscoveryPage<T>(value: unknown, item: (raw: unknown) => T): DiscoveryPage<T> {
  const raw = asObject(value, 'DiscoveryPage');
  if (!Array.isArray(raw.items)) {
    throw new ModelParseError('DiscoveryPage: items must be an array');
  }
  return {
    items: raw.items.map(item),
    nextCursor: optionalString(raw, 'nextCursor', 'next_cursor') ?? null,
  };
}

/** The query string of a discovery query: only the filters given. */
export function discoveryQueryString(query: AgentDiscoveryQuery & McpServerDiscoveryQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') {
      params.set(key, String(value));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function parseSkill(value: unknown): DiscoveredSkill {
  const raw = asObject(value, 'DiscoveredSkill');
  const id = optionalString(raw, 'id');
  const name = optionalString(raw, 'name');
  const tags = optionalStringArray(raw, 'tags');
  return {
    ...(id !== undefined ? { id } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(tags !== undefined ? { tags } : {}),
  };
}

function visibilityOf(raw: WireObject): AgentVisibility | undefined {
  const visibility = optionalString(raw, 'visibility');
  if (visibility !== undefined && !['PUBLIC', 'PRIVATE', 'INTERNAL'].includes(visibility)) {
    throw new ModelParseError('visibility: expected PUBLIC, PRIVATE or INTERNAL');
  }
  return visibility as AgentVisibility | undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
