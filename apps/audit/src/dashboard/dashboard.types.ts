import { TimeWindow } from '@agp/contracts';

export interface CountBy {
  key: string;
  count: number;
}

export interface TopEntry {
  id: string;
  label: string | null;
  events: number;
  blocks: number;
}

export interface TopLists {
  byVolume: TopEntry[];
  byBlocks: TopEntry[];
}

export interface Dashboard {
  window: TimeWindow;
  from: string;
  to: string;
  bucketSeconds: number;
  total: number;
  byAction: CountBy[];
  byEventType: CountBy[];
  byProtocol: CountBy[];
  topAgents: TopLists;
  topUsers: TopLists;
  topMcpServers: TopLists;
  /**
   * Policy groups by the hops they evaluated and by the hops their own verdict blocked (A16):
   * `label` is the group's name, `events` the hops, `blocks` those it blocked.
   */
  topPolicies: TopLists;
  /** Messages held for human review that nobody has decided yet (now, whatever the window). */
  pendingHitlRequests: number;
  series: Array<{ at: string; total: number; blocks: number }>;
}
