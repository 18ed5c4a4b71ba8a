import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database, Tx } from '@agp/database';
import { Page, PageQueryDto, pageOf } from '@agp/http';

import { IdentityException } from '../common/identity.exception';
import { isUniqueViolation } from '../common/like';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { assertAssignableRoles } from '../roles/role-grants';
import { RolesRepository } from '../roles/roles.repository';
import { UsersRepository } from '../users/users.repository';
import { AddMemberDto } from './dto/add-member.dto';
import { CreateGroupDto } from './dto/create-group.dto';
import { GroupMemberResponseDto, GroupResponseDto } from './dto/group-response.dto';
import { ListGroupsQueryDto } from './dto/list-groups-query.dto';
import { UpdateGroupDto } from './dto/update-group.dto';
import { Group } from './entities/group.entity';
import { GroupsRepository } from './groups.repository';

@Injectable()
export class GroupsService {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    private readonly groups: GroupsRepository,
    private readonly roles: RolesRepository,
    private readonly users: UsersRepository,
  ) {}

  list({ principal }: RequestContext, query: ListGroupsQueryDto): Promise<Page<GroupResponseDto>> {
    return this.database.inTenant(principal.tenantId, async (tx) => {
      const [items, total] = await this.groups.list(tx, principal.tenantId, query);
      return pageOf(items.map(GroupResponseDto.of), total, query);
    });
  }

  get({ principal }: RequestContext, id: string): Promise<GroupResponseDto> {
    return this.database.inTenant(principal.tenantId, async (tx) =>
      GroupResponseDto.of(await this.found(tx, principal.tenantId, id)),
    );
  }

  create({ principal }: RequestContext, dto: CreateGroupDto): Promise<GroupResponseDto> {
    return this.unique(() =>
      this.database.inTenant(principal.tenantId, async (tx) => {
        await assertAssignableRoles(this.roles, tx, principal, dto.roleIds ?? []);
        const group = Object.assign(new Group(), {
          id: randomUUID(),
          tenantId: principal.tenantId,
          name: dto.name,
          description: dto.description ?? '',
          roleIds: [...new Set(dto.roleIds ?? [])],
        });
        return GroupResponseDto.of(await this.groups.save(tx, group));
      }),
    );
  }

  update(
    { principal }: RequestContext,
    id: string,
    dto: UpdateGroupDto,
  ): Promise<GroupResponseDto> {
    return this.unique(() =>
      this.database.inTenant(principal.tenantId, async (tx) => {
        const group = await this.found(tx, principal.tenantId, id);
        if (dto.roleIds) {
          await assertAssignableRoles(this.roles, tx, principal, dto.roleIds);
          group.roleIds = [...new Set(dto.roleIds)];
        }
        group.name = dto.name ?? group.name;
        group.description = dto.description ?? group.description;
        return GroupResponseDto.of(await this.groups.save(tx, group));
      }),
    );
  }

  async remove({ principal }: RequestContext, id: string): Promise<void> {
    await this.database.inTenant(principal.tenantId, async (tx) => {
      await this.found(tx, principal.tenantId, id);
      await this.groups.remove(tx, principal.tenantId, id);
    });
  }

  members(
    { principal }: RequestContext,
    id: string,
    query: PageQueryDto,
  ): Promise<Page<GroupMemberResponseDto>> {
    return this.database.inTenant(principal.tenantId, async (tx) => {
      await this.found(tx, principal.tenantId, id);
      const [rows, total] = await this.groups.members(tx, principal.tenantId, id, query);
      return pageOf(rows.map(GroupMemberResponseDto.of), total, query);
    });
  }

  /** Joining a group hands out its roles: the caller must hold them (identity.md I4). */
  addMember(
    { principal }: RequestContext,
    id: string,
    dto: AddMemberDto,
  ): Promise<GroupMemberResponseDto> {
    return this.database.inTenant(principal.tenantId, async (tx) => {
      const group = await this.found(tx, principal.tenantId, id);
      const user = await this.users.findById(tx, principal.tenantId, dto.userId);
      if (!user) {
        throw IdentityException.invalidReference('userId', `unknown user ${dto.userId}`);
      }
      await assertAssignableRoles(this.roles, tx, principal, group.roleIds, 'userId');
      await this.groups.addMember(tx, principal.tenantId, id, user.id);
      return {
        userId: user.id,
        email: user.email,
        displayName: user.displayName,
        addedAt: new Date().toISOString(),
      };
    });
  }

  async removeMember({ principal }: RequestContext, id: string, userId: string): Promise<void> {
    await this.database.inTenant(principal.tenantId, async (tx) => {
      await this.found(tx, principal.tenantId, id);
      if (!(await this.groups.removeMember(tx, principal.tenantId, id, userId))) {
        throw IdentityException.notFound('member', userId);
      }
    });
  }

  private async found(tx: Tx, tenantId: string, id: string): Promise<Group> {
    const group = await this.groups.findById(tx, tenantId, id);
    if (!group) {
      throw IdentityException.notFound('group', id);
    }
    return group;
  }

  private async unique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw IdentityException.duplicate('a group with this name already exists');
      }
      throw error;
    }
  }
}
