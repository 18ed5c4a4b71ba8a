import { ToolDefinitionInput } from '../decisions/decision.types';
import { ImposedAction } from '../traffic/pipeline/hop.types';
import { ToolDriftAction } from '../traffic-settings/traffic-settings.types';
import { ToolDefinition, changedFields, statusOf } from './tool-definition';
import { StoredToolDefinition } from './tool-definitions.repository';

/** A tool of one server as one subscriber sees it: its facts, and whether it is to be handled. */
export interface ToolDrift {
  input: ToolDefinitionInput;
  /** The definition as last listed: its schemas are what calls are validated against (GR21). */
  definition: ToolDefinition;
  /** The definition changed after it was pinned (a rug pull). */
  isChanged: boolean;
  /** Never pinned here, while another server of this subscriber has the same name pinned. */
  isShadowing: boolean;
}

/** D51, T86: only a change against an approval reaches `toolDrift`. */
export function driftOf(
  stored: StoredToolDefinition,
  sameNames: StoredToolDefinition[],
): ToolDrift {
  const status = statusOf(stored.definitionHash, stored.pinnedHash);
  const shadowedBy = [...new Set(sameNames.map((other) => other.serverId))].sort();
  const input: ToolDefinitionInput = {
    hash: stored.definitionHash,
    pinned: status === 'PINNED',
    changedFields:
      status === 'CHANGED' && stored.pinnedDefinition
        ? changedFields(stored.pinnedDefinition, stored.definition)
        : [],
    status,
    ...(shadowedBy.length > 0 ? { shadowedBy } : {}),
    ...(stored.findings.length > 0 ? { findings: stored.findings } : {}),
  };
  return {
    input,
    definition: stored.definition,
    isChanged: status === 'CHANGED',
    isShadowing: status === 'NEW' && sameNames.some((other) => other.pinnedHash !== undefined),
  };
}

/** What the tenant's `toolDrift` imposes on a hop of the tool (nothing under LOG, D51). */
export function imposedBy(
  setting: ToolDriftAction,
  tool: string,
  drift: ToolDrift,
): ImposedAction | undefined {
  if (setting === 'LOG' || (!drift.isChanged && !drift.isShadowing)) {
    return undefined;
  }
  const why = drift.isChanged
    ? `the definition of the tool "${tool}" changed since it was pinned (${drift.input.changedFields.join(', ')})`
    : `the tool "${tool}" shadows a pinned tool of the same name on another server`;
  return setting === 'BLOCK'
    ? { action: 'BLOCK', reason: `${why}; blocked until an administrator pins it again` }
    : { action: 'HUMAN_REVIEW_REQUIRED', reason: `${why}; held for a reviewer` };
}
