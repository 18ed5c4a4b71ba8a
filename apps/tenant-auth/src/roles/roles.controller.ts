import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { CreateRoleDto } from './dto/create-role.dto';
import { ListRolesQueryDto } from './dto/list-roles-query.dto';
import { RoleResponseDto } from './dto/role-response.dto';
import { UpdateRoleDto } from './dto/update-role.dto';
import { RolesService } from './roles.service';

/** Roles grant access, so managing them is a tenant matter (TENANT), never beyond what the caller holds. */
@Controller('tenant-auth/v1/roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @RequirePermission('TENANT', 'READ')
  list(
    @Ctx() caller: RequestContext,
    @Query() query: ListRolesQueryDto,
  ): Promise<Page<RoleResponseDto>> {
    return this.roles.list(caller, query);
  }

  @Get(':roleId')
  @RequirePermission('TENANT', 'READ')
  get(
    @Ctx() caller: RequestContext,
    @Param('roleId', uuidParam('roleId')) id: string,
  ): Promise<RoleResponseDto> {
    return this.roles.get(caller, id);
  }

  @Post()
  @Created()
  @RequirePermission('TENANT', 'WRITE')
  create(@Ctx() caller: RequestContext, @Body() dto: CreateRoleDto): Promise<RoleResponseDto> {
    return this.roles.create(caller, dto);
  }

  @Patch(':roleId')
  @RequirePermission('TENANT', 'WRITE')
  update(
    @Ctx() caller: RequestContext,
    @Param('roleId', uuidParam('roleId')) id: string,
    @Body() dto: UpdateRoleDto,
  ): Promise<RoleResponseDto> {
    return this.roles.update(caller, id, dto);
  }

  @Delete(':roleId')
  @HttpCode(204)
  @RequirePermission('TENANT', 'DELETE')
  remove(
    @Ctx() caller: RequestContext,
    @Param('roleId', uuidParam('roleId')) id: string,
  ): Promise<void> {
    return this.roles.remove(caller, id);
  }
}
