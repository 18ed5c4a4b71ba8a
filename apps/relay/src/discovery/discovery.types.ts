import { AgentVisibility } from '@agp/contracts';

/** What discovery finds (DS1): agents by their A2A card, MCP servers by their recorded tools. */
export type DiscoveryKind = 'AGENT' | 'MCP_SERVER';

/** D59's filters; every one given must hold (DS5), `q` ranks (DS3). */
export interface DiscoveryFilters {
  q?: string;
  skill?: string;
  tag?: string;
  capability?: string;
  inputMode?: string;
  outputMode?: string;
  tool?: string;
}

/** What `searchStatement` filters on: discovery's filters and a listing's category (DS14). */
export interface SearchFilters extends DiscoveryFilters {
  category?: string;
}

/**
 * Who looks (DS7): an administrator holding the registry's read role sees every entry of the
 * tenant; an agent sees INTERNAL and PUBLIC entries, itself, and the PRIVATE ones it subscribes to.
 */
export type Viewer = { kind: 'ADMIN' } | { kind: 'AGENT'; agentId: string };

/** Where a page starts: after this rank, name and id (DS6). */
export interface SearchCursor {
  rank: number;
  name: string;
  id: string;
}

/** One indexed entry as the repository reads it. */
export interface DiscoveryEntry {
  id: string;
  kind: DiscoveryKind;
  name: string;
  description?: string;
  visibility: AgentVisibility;
  /** What the trigger kept of the card or the tools (skills, modes, tool names). */
  summary: Record<string, unknown>;
  rank: number;
}

export interface DiscoveryResult {
  entries: DiscoveryEntry[];
  next?: SearchCursor;
}
