import {
  TOOL_DEFINITION_CHANGES,
  ToolDefinitionChange,
  ToolDefinitionEvidence,
} from '@agp/contracts';

import { deterministicUuid } from '../deterministic-uuid';
import { Finding } from '../monitors.types';

/** What the relay's MCP_LIFECYCLE of a tool definition says (traffic.md T87). */
export interface ToolDefinitionEvent {
  occurredAt: string;
  details?: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HASH = /^[0-9a-f]{64}$/;

/**
 * M59: TOOL_DEFINITION_DRIFT (D51), one finding per MCP_LIFECYCLE whose `change` is a drift or a
 * shadowing, subject the MCP server; undefined for any other lifecycle event. HIGH: a rug pull or
 * a shadowing tool reaches a model's instructions. The finding id is the change itself (server,
 * tool, hash or pair), so the same change told twice is one finding.
 */
export function toolDriftFinding(event: ToolDefinitionEvent): Finding | undefined {
  const details = event.details ?? {};
  const change = details.change as ToolDefinitionChange;
  const serverId = details.mcpServerId;
  const tool = details.tool;
  if (
    !(TOOL_DEFINITION_CHANGES as readonly unknown[]).includes(change) ||
    typeof serverId !== 'string' ||
    !UUID.test(serverId) ||
    typeof tool !== 'string' ||
    tool.length === 0
  ) {
    return undefined;
  }
  const evidence: ToolDefinitionEvidence = {
    kind: 'TOOL_DEFINITION',
    subjectType: 'MCP_SERVER',
    subjectId: serverId,
    tool: tool.slice(0, 200),
    change,
    ...optional(details, 'definitionHash', HASH),
    ...optional(details, 'pinnedHash', HASH),
    ...optional(details, 'otherMcpServerId', UUID),
    ...optional(details, 'subscriberId', UUID),
    ...(Array.isArray(details.changedFields)
      ? { changedFields: details.changedFields.filter((f) => typeof f === 'string').slice(0, 10) }
      : {}),
  };
  const what =
    change === 'TOOL_DEFINITION_CHANGED'
      ? `the definition of the tool ${tool} changed after it was pinned`
      : `the tool name ${tool} is offered by two MCP servers of one subscriber`;
  return {
    findingId: deterministicUuid(
      'tool-definition',
      change,
      serverId,
      tool,
      evidence.definitionHash ?? evidence.otherMcpServerId ?? '',
      evidence.subscriberId ?? '',
    ),
    detector: 'TOOL_DEFINITION_DRIFT',
    severity: 'HIGH',
    direction: 'SPIKE',
    subject: { type: 'MCP_SERVER', id: serverId },
    summary: what,
    evidence,
    detectedAt: new Date(event.occurredAt),
  };
}

function optional(
  details: Record<string, unknown>,
  key: 'definitionHash' | 'pinnedHash' | 'otherMcpServerId' | 'subscriberId',
  shape: RegExp,
): Partial<ToolDefinitionEvidence> {
  const value = details[key];
  return typeof value === 'string' && shape.test(value) ? { [key]: value } : {};
}
