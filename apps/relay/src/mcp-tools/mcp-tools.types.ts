import { ToolStatus } from './tool-definition';

/** D51: one tool definition the relay has seen on a server, as the API shows it. */
export interface ToolDefinitionResponse {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  /** SHA-256 (hex) of the definition's canonical JSON. */
  definitionHash: string;
  /** The hash an administrator approved; null when never pinned. */
  pinnedHash: string | null;
  status: ToolStatus;
  /** D51 `changedFields`: what differs from the pinned definition (empty unless CHANGED). */
  changedFields: string[];
  /** guardrails.md GR14: prompt-injection findings in the definition's text. */
  findings: { field: string; type: string; score: number }[];
  firstSeenAt: string;
  changedAt: string;
  pinnedAt: string | null;
  pinnedBy: string | null;
}

export interface ToolDefinitionListResponse {
  items: ToolDefinitionResponse[];
}
