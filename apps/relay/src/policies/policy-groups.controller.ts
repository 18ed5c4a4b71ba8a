import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { CreatePolicyGroupDto } from './dto/create-policy-group.dto';
import { CreatePolicyVersionDto } from './dto/create-policy-version.dto';
import { ListPolicyGroupsQueryDto } from './dto/list-policy-groups-query.dto';
import { ListPolicyVersionsQueryDto } from './dto/list-policy-versions-query.dto';
import { PolicyGroupResponse, PolicyVersionResponse } from './dto/policy-responses';
import { UpdatePolicyGroupDto } from './dto/update-policy-group.dto';
import { PolicyGroupsService } from './policy-groups.service';
import { PolicyVersionsService } from './policy-versions.service';

@Controller('relay/v1/policy-groups')
export class PolicyGroupsController {
  constructor(
    private readonly groups: PolicyGroupsService,
    private readonly versions: PolicyVersionsService,
  ) {}

  @Post()
  @Created()
  @RequirePermission('TENANT', 'WRITE')
  create(
    @Ctx() ctx: RequestContext,
    @Body() dto: CreatePolicyGroupDto,
  ): Promise<PolicyGroupResponse> {
    return this.groups.create(ctx, dto);
  }

  @Get()
  @RequirePermission('TENANT', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListPolicyGroupsQueryDto,
  ): Promise<Page<PolicyGroupResponse>> {
    return this.groups.list(ctx, query);
  }

  @Get(':groupId')
  @RequirePermission('TENANT', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('groupId', uuidParam('groupId')) groupId: string,
  ): Promise<PolicyGroupResponse> {
    return this.groups.get(ctx, groupId);
  }

  @Patch(':groupId')
  @RequirePermission('TENANT', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('groupId', uuidParam('groupId')) groupId: string,
    @Body() dto: UpdatePolicyGroupDto,
  ): Promise<PolicyGroupResponse> {
    return this.groups.update(ctx, groupId, dto);
  }

  @Delete(':groupId')
  @HttpCode(204)
  @RequirePermission('TENANT', 'WRITE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('groupId', uuidParam('groupId')) groupId: string,
  ): Promise<void> {
    return this.groups.remove(ctx, groupId);
  }

  @Post(':groupId/versions')
  @Created('version')
  @RequirePermission('TENANT', 'WRITE')
  createVersion(
    @Ctx() ctx: RequestContext,
    @Param('groupId', uuidParam('groupId')) groupId: string,
    @Body() dto: CreatePolicyVersionDto,
  ): Promise<PolicyVersionResponse> {
    return this.versions.create(ctx, groupId, dto);
  }

  @Get(':groupId/versions')
  @RequirePermission('TENANT', 'READ')
  listVersions(
    @Ctx() ctx: RequestContext,
    @Param('groupId', uuidParam('groupId')) groupId: string,
    @Query() query: ListPolicyVersionsQueryDto,
  ): Promise<Page<PolicyVersionResponse>> {
    return this.versions.list(ctx, groupId, query);
  }

  @Get(':groupId/versions/:version')
  @RequirePermission('TENANT', 'READ')
  getVersion(
    @Ctx() ctx: RequestContext,
    @Param('groupId', uuidParam('groupId')) groupId: string,
    @Param('version') version: string,
  ): Promise<PolicyVersionResponse> {
    return this.versions.get(ctx, groupId, version);
  }

  @Post(':groupId/versions/:version/retire')
  @HttpCode(200)
  @RequirePermission('TENANT', 'WRITE')
  retireVersion(
    @Ctx() ctx: RequestContext,
    @Param('groupId', uuidParam('groupId')) groupId: string,
    @Param('version') version: string,
  ): Promise<PolicyVersionResponse> {
    return this.versions.retire(ctx, groupId, version);
  }
}
