import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { RequestContext } from '@agp/auth';
import { ChangeTarget } from '@agp/contracts';
import { Database, isUniqueViolation, Tx } from '@agp/database';
import { Page, PageQueryDto, pageOf } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { IdentityException } from '../common/identity.exception';
import { TENANT_AUTH_DATABASE, TENANT_AUTH_OUTBOX } from '../database/tokens';
import { assertAssignableRoles } from '../roles/role-grants';
import { RolesRepository } from '../roles/roles.repository';
import { UsersRepository } from '../users/users.repository';
import { AddMemberDto } from './dto/add-member.dto';
import { CreateGroupDto } from './dto/create-group.dto';
import { GroupMemberResponseDto, GroupResponseDto } from './dto/group-response.dto';
import { ListGroupsQueryDto } from './dto/list-groups-query.dto';
import { UpdateGroupDto } from './dto/update-group.dto';
import { Group } from './group.types';
import { GroupsRepository } from './groups.repository';

/** A group as the target of its ADMIN_CHANGE (D42). */
function groupTarget(group: Group): ChangeTarget {
  return { kind: 'GROUP', id: group.id, name: group.name };
}

@Injectable()
export class GroupsService {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_OUTBOX) private readonly outbox: EventOutbox,
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

  create(caller: RequestContext, dto: CreateGroupDto): Promise<GroupResponseDto> {
    const { principal } = caller;
    return this.unique(() =>
      this.database.inTenant(principal.tenantId, async (tx) => {
        await assertAssignableRoles(this.roles, tx, principal, dto.roleIds ?? []);
        const group = {
          id: randomUUID(),
          tenantId: principal.tenantId,
          name: dto.name,
          description: dto.description ?? '',
          roleIds: [...new Set(dto.roleIds ?? [])],
        };
        const saved = await this.groups.save(tx, group);
        await recordAdminChange(this.outbox, tx, caller, 'CREATED', {
          target: groupTarget(saved),
          after: saved,
        });
        return GroupResponseDto.of(saved);
      }),
    );
  }

  update(caller: RequestContext, id: string, dto: UpdateGroupDto): Promise<GroupResponseDto> {
    const { principal } = caller;
    return this.unique(() =>
      this.database.inTenant(principal.tenantId, async (tx) => {
        const group = await this.found(tx, principal.tenantId, id);
        const before = { ...group };
        if (dto.roleIds) {
          await assertAssignableRoles(this.roles, tx, principal, dto.roleIds);
          group.roleIds = [...new Set(dto.roleIds)];
        }
        group.name = dto.name ?? group.name;
        group.description = dto.description ?? group.description;
        const saved = await this.groups.save(tx, group);
        await recordAdminChange(this.outbox, tx, caller, 'UPDATED', {
          target: groupTarget(saved),
          before,
          after: saved,
        });
        return GroupResponseDto.of(saved);
      }),
    );
  }

  async remove(caller: RequestContext, id: string): Promise<void> {
    const { principal } = caller;
    await this.database.inTenant(principal.tenantId, async (tx) => {
      const group = await this.found(tx, principal.tenantId, id);
      await this.groups.remove(tx, principal.tenantId, id);
      await recordAdminChange(this.outbox, tx, caller, 'DELETED', {
        target: groupTarget(group),
        before: group,
      });
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
    caller: RequestContext,
    id: string,
    dto: AddMemberDto,
  ): Promise<GroupMemberResponseDto> {
    const { principal } = caller;
    return this.database.inTenant(principal.tenantId, async (tx) => {
      const group = await this.found(tx, principal.tenantId, id);
      const user = await this.users.findById(tx, principal.tenantId, dto.userId);
      if (!user) {
        throw IdentityException.invalidReference('userId', `unknown user ${dto.userId}`);
      }
      await assertAssignableRoles(this.roles, tx, principal, group.roleIds, 'userId');
      await this.groups.addMember(tx, principal.tenantId, id, user.id);
      // D42: joining a group grants its roles, so it is audited like a role grant.
      await recordAdminChange(this.outbox, tx, caller, 'CREATED', {
        target: { kind: 'GROUP_MEMBER', id: user.id, name: user.email },
        after: {
          groupId: group.id,
          groupName: group.name,
          userId: user.id,
          roleIds: group.roleIds,
        },
      });
      return {
        userId: user.id,
        email: user.email,
        displayName: user.displayName,
        addedAt: new Date().toISOString(),
      };
    });
  }

  async removeMember(caller: RequestContext, id: string, userId: string): Promise<void> {
    const { principal } = caller;
    await this.database.inTenant(principal.tenantId, async (tx) => {
      const group = await this.found(tx, principal.tenantId, id);
      if (!(await this.groups.removeMember(tx, principal.tenantId, id, userId))) {
        throw IdentityException.notFound('member', userId);
      }
      await recordAdminChange(this.outbox, tx, caller, 'DELETED', {
        target: { kind: 'GROUP_MEMBER', id: userId },
        before: { groupId: group.id, groupName: group.name, userId, roleIds: group.roleIds },
      });
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
