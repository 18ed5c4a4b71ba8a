export const KILL_SWITCH_SCOPES = [
  'TENANT',
  'AGENT',
  'MCP_SERVER',
  'LLM_GATEWAY',
  'CHANNEL',
] as const;
export type KillSwitchScope = (typeof KILL_SWITCH_SCOPES)[number];

/** D35: an engaged switch refuses every hop touching its target until it is released. */
export interface KillSwitch {
  id: string;
  scope: KillSwitchScope;
  targetId: string;
  reason: string;
  status: 'ENGAGED' | 'RELEASED';
  engagedBy: string | null;
  releasedBy: string | null;
  releasedAt: string | null;
  createdAt: string;
  updatedAt: string;
}
