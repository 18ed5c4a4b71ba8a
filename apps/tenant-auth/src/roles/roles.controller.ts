import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import { RequirePermission } from '@agp/auth';
import { Page } from '@agp/http';
import { FastifyReply } from 'fastify';

import { Caller, CurrentCaller } from '../common/request-context';
import { created } from '../common/created';
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
    @CurrentCaller() caller: Caller,
    @Query() query: ListRolesQueryDto,
  ): Promise<Page<RoleResponseDto>> {
    return this.roles.list(caller, query);
  }

  @Get(':roleId')
  @RequirePermission('TENANT', 'READ')
  get(
    @CurrentCaller() caller: Caller,
    @Param('roleId', ParseUUIDPipe) id: string,
  ): Promise<RoleResponseDto> {
    return this.roles.get(caller, id);
  }

  @Post()
  @RequirePermission('TENANT', 'WRITE')
  async create(
    @CurrentCaller() caller: Caller,
    @Body() dto: CreateRoleDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RoleResponseDto> {
    return created(reply, 'roles', await this.roles.create(caller, dto));
  }

  @Patch(':roleId')
  @RequirePermission('TENANT', 'WRITE')
  update(
    @CurrentCaller() caller: Caller,
    @Param('roleId', ParseUUIDPipe) id: string,
    @Body() dto: UpdateRoleDto,
  ): Promise<RoleResponseDto> {
    return this.roles.update(caller, id, dto);
  }

  @Delete(':roleId')
  @HttpCode(204)
  @RequirePermission('TENANT', 'DELETE')
  remove(
    @CurrentCaller() caller: Caller,
    @Param('roleId', ParseUUIDPipe) id: string,
  ): Promise<void> {
    return this.roles.remove(caller, id);
  }
}
