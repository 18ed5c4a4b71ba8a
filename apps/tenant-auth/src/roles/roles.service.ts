import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { RequestContext } from '@agp/auth';
import { ChangeTarget } from '@agp/contracts';
import { Database, isUniqueViolation } from '@agp/database';
import { Page, pageOf } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { assertCanGrant } from '../common/grants';
import { IdentityException } from '../common/identity.exception';
import { rolesOf } from '../common/permission-entry.dto';
import { TENANT_AUTH_DATABASE, TENANT_AUTH_OUTBOX } from '../database/tokens';
import { CreateRoleDto } from './dto/create-role.dto';
import { ListRolesQueryDto } from './dto/list-roles-query.dto';
import { RoleResponseDto } from './dto/role-response.dto';
import { UpdateRoleDto } from './dto/update-role.dto';
import { Role } from './role.types';
import { RolesRepository } from './roles.repository';

/** A role as the target of its ADMIN_CHANGE (D42): its permissions are the grants it hands out. */
function roleTarget(role: Role): ChangeTarget {
  return { kind: 'ROLE', id: role.id, name: role.name };
}

@Injectable()
export class RolesService {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_OUTBOX) private readonly outbox: EventOutbox,
    private readonly roles: RolesRepository,
  ) {}

  list({ principal }: RequestContext, query: ListRolesQueryDto): Promise<Page<RoleResponseDto>> {
    return this.database.inTenant(principal.tenantId, async (tx) => {
      const [items, total] = await this.roles.list(tx, principal.tenantId, query);
      return pageOf(items.map(RoleResponseDto.of), total, query);
    });
  }

  get({ principal }: RequestContext, id: string): Promise<RoleResponseDto> {
    return this.database.inTenant(principal.tenantId, async (tx) =>
      RoleResponseDto.of(await this.found(tx, principal.tenantId, id)),
    );
  }

  async create(caller: RequestContext, dto: CreateRoleDto): Promise<RoleResponseDto> {
    const { principal } = caller;
    const permissions = rolesOf(dto.permissions);
    assertCanGrant(principal, permissions, 'permissions');
    return this.unique(() =>
      this.database.inTenant(principal.tenantId, async (tx) => {
        const role = {
          id: randomUUID(),
          tenantId: principal.tenantId,
          name: dto.name,
          description: dto.description ?? '',
          permissions,
        };
        const saved = await this.roles.save(tx, role);
        await recordAdminChange(this.outbox, tx, caller, 'CREATED', {
          target: roleTarget(saved),
          after: saved,
        });
        return RoleResponseDto.of(saved);
      }),
    );
  }

  async update(caller: RequestContext, id: string, dto: UpdateRoleDto): Promise<RoleResponseDto> {
    const { principal } = caller;
    return this.unique(() =>
      this.database.inTenant(principal.tenantId, async (tx) => {
        const role = await this.found(tx, principal.tenantId, id);
        const before = { ...role };
        // Changing a role changes what everyone holding it may do: the caller must hold both sets.
        assertCanGrant(principal, role.permissions, 'permissions');
        if (dto.permissions) {
          role.permissions = rolesOf(dto.permissions);
          assertCanGrant(principal, role.permissions, 'permissions');
        }
        role.name = dto.name ?? role.name;
        role.description = dto.description ?? role.description;
        const saved = await this.roles.save(tx, role);
        await recordAdminChange(this.outbox, tx, caller, 'UPDATED', {
          target: roleTarget(saved),
          before,
          after: saved,
        });
        return RoleResponseDto.of(saved);
      }),
    );
  }

  async remove(caller: RequestContext, id: string): Promise<void> {
    const { principal } = caller;
    await this.database.inTenant(principal.tenantId, async (tx) => {
      const role = await this.found(tx, principal.tenantId, id);
      assertCanGrant(principal, role.permissions, 'permissions');
      await this.roles.remove(tx, principal.tenantId, id);
      await recordAdminChange(this.outbox, tx, caller, 'DELETED', {
        target: roleTarget(role),
        before: role,
      });
    });
  }

  private async found(
    tx: Parameters<RolesRepository['findById']>[0],
    tenantId: string,
    id: string,
  ): Promise<Role> {
    const role = await this.roles.findById(tx, tenantId, id);
    if (!role) {
      throw IdentityException.notFound('role', id);
    }
    return role;
  }

  private async unique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw IdentityException.duplicate('a role with this name already exists');
      }
      throw error;
    }
  }
}
