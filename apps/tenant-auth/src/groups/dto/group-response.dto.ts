import { GroupMember } from '../group.types';
import { Group } from '../group.types';

export class GroupResponseDto {
  id: string;
  name: string;
  description: string;
  roleIds: string[];
  createdAt: string;
  updatedAt: string;

  static of(group: Group): GroupResponseDto {
    return {
      id: group.id,
      name: group.name,
      description: group.description,
      roleIds: group.roleIds,
      createdAt: group.createdAt.toISOString(),
      updatedAt: group.updatedAt.toISOString(),
    };
  }
}

export class GroupMemberResponseDto {
  userId: string;
  email: string;
  displayName: string;
  addedAt: string;

  static of(row: GroupMember): GroupMemberResponseDto {
    return { ...row, addedAt: new Date(row.addedAt).toISOString() };
  }
}
