import { Principal, allows, parseRole } from '@agp/auth';

import { IdentityException, IdentityErrorCode } from './identity.exception';

// identity.md I4: a caller may hand out only what it holds itself (D10 implications included), so
// USERS:WRITE cannot be turned into TENANT:ADMIN by creating a role or an agent.
export function assertCanGrant(principal: Principal, roles: Iterable<string>, field: string): void {
  for (const role of roles) {
    const entry = parseRole(role);
    if (!entry || !allows(principal.permissions, entry.entity, entry.permission)) {
      throw new IdentityException(
        IdentityErrorCode.Escalation,
        `you cannot grant ${role}: you do not hold it`,
        field,
      );
    }
  }
}
