import { PermissionEntryDto, entriesOf } from '../../common/permission-entry.dto';
import { Role } from '../role.types';

export class RoleResponseDto {
  id: string;
  name: string;
  description: string;
  permissions: PermissionEntryDto[];
  createdAt: string;
  updatedAt: string;

  static of(role: Role): RoleResponseDto {
    return {
      id: role.id,
      name: role.name,
      description: role.description,
      permissions: entriesOf(role.permissions),
      createdAt: role.createdAt.toISOString(),
      updatedAt: role.updatedAt.toISOString(),
    };
  }
}
