import {
  PERMISSION_ENTITIES,
  PERMISSIONS,
  Permission,
  PermissionEntity,
  PermissionRole,
} from '@agp/contracts';

export interface PermissionEntry {
  entity: PermissionEntity;
  permission: Permission;
}

/** D10: ADMIN implies READ, WRITE and DELETE; WRITE and DELETE each imply READ. */
const IMPLIED: Readonly<Record<Permission, readonly Permission[]>> = {
  ADMIN: ['ADMIN', 'DELETE', 'READ', 'WRITE'],
  DELETE: ['DELETE', 'READ'],
  WRITE: ['WRITE', 'READ'],
  READ: ['READ'],
};

export function roleOf(entity: PermissionEntity, permission: Permission): PermissionRole {
  return `${entity}:${permission}`;
}

export function parseRole(role: string): PermissionEntry | undefined {
  const [entity, permission, extra] = role.split(':');
  if (
    extra !== undefined ||
    !(PERMISSION_ENTITIES as readonly string[]).includes(entity ?? '') ||
    !(PERMISSIONS as readonly string[]).includes(permission ?? '')
  ) {
    return undefined;
  }
  return { entity: entity as PermissionEntity, permission: permission as Permission };
}

/** The effective permission entries of a set of role strings (D10). */
export function expandPermissions(roles: Iterable<string>): PermissionEntry[] {
  const expanded = new Set<PermissionRole>();
  for (const role of roles) {
    const entry = parseRole(role);
    for (const permission of entry ? IMPLIED[entry.permission] : []) {
      expanded.add(roleOf(entry!.entity, permission));
    }
  }
  return [...expanded].sort().map((role) => parseRole(role) as PermissionEntry);
}

export function allows(
  granted: ReadonlySet<string>,
  entity: PermissionEntity,
  permission: Permission,
): boolean {
  for (const held of PERMISSIONS) {
    if (granted.has(roleOf(entity, held)) && IMPLIED[held].includes(permission)) {
      return true;
    }
  }
  return false;
}
