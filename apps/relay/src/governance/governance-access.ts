import { Principal, allows, roleOf } from '@agp/auth';
import {
  GOVERNED_SUBJECT_TYPES,
  GovernedSubjectType,
  Permission,
  PermissionEntity,
} from '@agp/contracts';
import { HttpProblem } from '@agp/http';

/** G4: guarded as the subject's registry entry is. */
export const GOVERNANCE_ENTITY: Readonly<Record<GovernedSubjectType, PermissionEntity>> = {
  AGENT: 'REGISTRY',
  MCP_SERVER: 'MCP_REGISTRY',
  LLM_GATEWAY: 'LLM_GATEWAY',
  CHANNEL: 'CHANNELS',
};

/** 403 naming the role (D12) unless the caller holds it on the subject's entity. */
export function requireOn(
  principal: Principal,
  subjectType: GovernedSubjectType,
  permission: Permission,
): void {
  const entity = GOVERNANCE_ENTITY[subjectType];
  if (!allows(principal.permissions, entity, permission)) {
    throw HttpProblem.forbidden(roleOf(entity, permission));
  }
}

/** The subject types whose records the caller may read; none is a 403 naming the agents' role. */
export function readableSubjectTypes(principal: Principal): GovernedSubjectType[] {
  const readable = GOVERNED_SUBJECT_TYPES.filter((type) =>
    allows(principal.permissions, GOVERNANCE_ENTITY[type], 'READ'),
  );
  if (readable.length === 0) {
    throw HttpProblem.forbidden(roleOf('REGISTRY', 'READ'));
  }
  return readable;
}
