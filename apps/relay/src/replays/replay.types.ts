import { BindingLevel, Protocol } from '@agp/contracts';

/** What a replay keeps of the hops it reads (the body's `filters`, governance.md G10). */
export interface ReplayFilters {
  protocols?: Protocol[];
  toolNames?: string[];
  /** Hops from or to any of these endpoints (agents, MCP servers, gateways, channels). */
  endpointIds?: string[];
}

/** Where the replayed version is placed (D55: where `bindingId` is, else TENANT; G7). */
export interface ReplayPlacement {
  bindingLevel: BindingLevel;
  agentId?: string;
  sourceAgentId?: string;
  sinkAgentId?: string;
  channelId?: string;
  /** The ENFORCE bindings of the version's group at that place, which it stands in for. */
  replaces: string[];
}

export const REPLAY_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type ReplayStatus = (typeof REPLAY_STATUSES)[number];

/** A replay as stored: its request, where it stands, and how far it got. */
export interface Replay {
  replayId: string;
  groupId: string;
  version: string;
  versionId: string;
  bindingId?: string;
  from: string;
  to: string;
  filters: ReplayFilters;
  placement: ReplayPlacement;
  status: ReplayStatus;
  /** Hops read from the trail in the window (those the filters and the placement keep or not). */
  scanned: number;
  /** Hops re-judged (content captured, D40). */
  judged: number;
  /** D55: hops in scope recorded with their digest only, never guessed. */
  unreplayable: number;
  /** Where the replay has read up to: its progress through the window. */
  cursorAt?: string;
  /** The id of the last hop read (the keyset's second half). */
  cursorId?: string;
  errorMessage?: string;
  requestedBy?: { id: string; name?: string };
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
}
