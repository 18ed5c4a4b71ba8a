import { PERMISSIONS, PERMISSION_ENTITIES } from '@agp/contracts/enums';

import type { PermissionEntry } from '../api/platform';

/** Every `ENTITY:PERMISSION` a role may hold (D10). */
export const PERMISSION_CHOICES = PERMISSION_ENTITIES.flatMap((entity) =>
  PERMISSIONS.map((permission) => `${entity}:${permission}`),
);

export function entryOf(role: string): PermissionEntry {
  const [entity, permission] = role.split(':');
  return { entity, permission: permission as PermissionEntry['permission'] };
}
