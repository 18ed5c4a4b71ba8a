import { AgentVisibility } from '@agp/contracts';

/** A skill as discovery answers it: enough to choose, the card has the rest. */
export interface DiscoveredSkill {
  id?: string;
  name?: string;
  tags?: string[];
}

export interface DiscoveredAgent {
  id: string;
  name: string;
  description?: string;
  visibility: AgentVisibility;
  /** The card through the relay (D38); the agent's own URL is never shown (D59). */
  agentCardUrl: string;
  skills: DiscoveredSkill[];
  capabilities: Record<string, unknown>;
  defaultInputModes: string[];
  defaultOutputModes: string[];
  /** How well it matched `q` (0 without `q`); higher first. */
  score: number;
}

export interface DiscoveredMcpServer {
  id: string;
  name: string;
  description?: string;
  visibility: AgentVisibility;
  transport?: string;
  /** The tools the relay has seen it list (D51). */
  tools: string[];
  /** Where an agent calls it through the relay (D20). */
  relayUrl: string;
  score: number;
}

/** DS6: a page and the cursor of the next one, null on the last. */
export interface DiscoveryPage<T> {
  items: T[];
  nextCursor: string | null;
}
