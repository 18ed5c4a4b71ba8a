import { Principal } from '@agp/auth';
import { Tx } from '@agp/database';

import { assertCanGrant } from '../common/grants';
import { IdentityException } from '../common/identity.exception';
import { RolesRepository } from './roles.repository';

/** Role ids given to a user or group: each must be the tenant's (400) and within what the caller holds (403). */
export async function assertAssignableRoles(
  roles: RolesRepository,
  tx: Tx,
  principal: Principal,
  roleIds: string[],
  field = 'roleIds',
): Promise<void> {
  const unique = [...new Set(roleIds)];
  const found = await roles.findByIds(tx, principal.tenantId, unique);
  if (found.length !== unique.length) {
    const known = new Set(found.map((role) => role.id));
    throw IdentityException.invalidReference(
      field,
      `unknown role ${unique.find((id) => !known.has(id))}`,
    );
  }
  assertCanGrant(
    principal,
    found.flatMap((role) => role.permissions),
    field,
  );
}
