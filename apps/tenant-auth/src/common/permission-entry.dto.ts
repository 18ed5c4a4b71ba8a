import { IsIn } from 'class-validator';
import { PERMISSIONS, PERMISSION_ENTITIES, Permission, PermissionEntity } from '@agp/contracts';

/** A permission entry as the specification shows it: `{entity, permission}`. */
export class PermissionEntryDto {
  @IsIn(PERMISSION_ENTITIES)
  entity: PermissionEntity;

  @IsIn(PERMISSIONS)
  permission: Permission;
}

export function rolesOf(entries: PermissionEntryDto[]): string[] {
  return [...new Set(entries.map((e) => `${e.entity}:${e.permission}`))].sort();
}

export function entriesOf(roles: string[]): PermissionEntryDto[] {
  return roles.map((role) => {
    const [entity, permission] = role.split(':');
    return { entity: entity as PermissionEntity, permission: permission as Permission };
  });
}
