import { Principal, allows, roleOf } from '@agp/auth';
import { ConversationFamily, PermissionEntity } from '@agp/contracts';
import { HttpProblem } from '@agp/http';

/** D44, conversations.md CV6: the agent, people and channel paths, and the MCP path. */
export const FAMILY_ENTITY: Readonly<Record<ConversationFamily, PermissionEntity>> = {
  AGENT: 'AGENT_CONVERSATIONS',
  MCP: 'MCP_CONVERSATIONS',
};

/** The families the caller may read; none is a 403 naming AGENT_CONVERSATIONS:READ (D12). */
export function readableFamilies(principal: Principal): ConversationFamily[] {
  const families = (['AGENT', 'MCP'] as const).filter((family) =>
    allows(principal.permissions, FAMILY_ENTITY[family], 'READ'),
  );
  if (families.length === 0) {
    throw HttpProblem.forbidden(roleOf('AGENT_CONVERSATIONS', 'READ'));
  }
  return families;
}
