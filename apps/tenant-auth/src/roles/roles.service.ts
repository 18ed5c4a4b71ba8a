import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database } from '@agp/database';
import { Page, pageOf } from '@agp/http';

import { assertCanGrant } from '../common/grants';
import { IdentityException } from '../common/identity.exception';
import { isUniqueViolation } from '../common/like';
import { rolesOf } from '../common/permission-entry.dto';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { CreateRoleDto } from './dto/create-role.dto';
import { ListRolesQueryDto } from './dto/list-roles-query.dto';
import { RoleResponseDto } from './dto/role-response.dto';
import { UpdateRoleDto } from './dto/update-role.dto';
import { Role } from './entities/role.entity';
import { RolesRepository } from './roles.repository';

@Injectable()
export class RolesService {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
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

  async create({ principal }: RequestContext, dto: CreateRoleDto): Promise<RoleResponseDto> {
    const permissions = rolesOf(dto.permissions);
    assertCanGrant(principal, permissions, 'permissions');
    return this.unique(() =>
      this.database.inTenant(principal.tenantId, async (tx) => {
        const role = Object.assign(new Role(), {
          id: randomUUID(),
          tenantId: principal.tenantId,
          name: dto.name,
          description: dto.description ?? '',
          permissions,
        });
        return RoleResponseDto.of(await this.roles.save(tx, role));
      }),
    );
  }

  async update(
    { principal }: RequestContext,
    id: string,
    dto: UpdateRoleDto,
  ): Promise<RoleResponseDto> {
    return this.unique(() =>
      this.database.inTenant(principal.tenantId, async (tx) => {
        const role = await this.found(tx, principal.tenantId, id);
        // Changing a role changes what everyone holding it may do: the caller must hold both sets.
        assertCanGrant(principal, role.permissions, 'permissions');
        if (dto.permissions) {
          role.permissions = rolesOf(dto.permissions);
          assertCanGrant(principal, role.permissions, 'permissions');
        }
        role.name = dto.name ?? role.name;
        role.description = dto.description ?? role.description;
        return RoleResponseDto.of(await this.roles.save(tx, role));
      }),
    );
  }

  async remove({ principal }: RequestContext, id: string): Promise<void> {
    await this.database.inTenant(principal.tenantId, async (tx) => {
      const role = await this.found(tx, principal.tenantId, id);
      assertCanGrant(principal, role.permissions, 'permissions');
      await this.roles.remove(tx, principal.tenantId, id);
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
