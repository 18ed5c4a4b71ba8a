import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, PageQueryDto, uuidParam } from '@agp/http';

import { AddMemberDto } from './dto/add-member.dto';
import { CreateGroupDto } from './dto/create-group.dto';
import { GroupMemberResponseDto, GroupResponseDto } from './dto/group-response.dto';
import { ListGroupsQueryDto } from './dto/list-groups-query.dto';
import { UpdateGroupDto } from './dto/update-group.dto';
import { GroupsService } from './groups.service';

@Controller('tenant-auth/v1/groups')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get()
  @RequirePermission('GROUPS', 'READ')
  list(
    @Ctx() caller: RequestContext,
    @Query() query: ListGroupsQueryDto,
  ): Promise<Page<GroupResponseDto>> {
    return this.groups.list(caller, query);
  }

  @Get(':groupId')
  @RequirePermission('GROUPS', 'READ')
  get(
    @Ctx() caller: RequestContext,
    @Param('groupId', uuidParam('groupId')) id: string,
  ): Promise<GroupResponseDto> {
    return this.groups.get(caller, id);
  }

  @Post()
  @Created()
  @RequirePermission('GROUPS', 'WRITE')
  create(@Ctx() caller: RequestContext, @Body() dto: CreateGroupDto): Promise<GroupResponseDto> {
    return this.groups.create(caller, dto);
  }

  @Patch(':groupId')
  @RequirePermission('GROUPS', 'WRITE')
  update(
    @Ctx() caller: RequestContext,
    @Param('groupId', uuidParam('groupId')) id: string,
    @Body() dto: UpdateGroupDto,
  ): Promise<GroupResponseDto> {
    return this.groups.update(caller, id, dto);
  }

  @Delete(':groupId')
  @HttpCode(204)
  @RequirePermission('GROUPS', 'DELETE')
  remove(
    @Ctx() caller: RequestContext,
    @Param('groupId', uuidParam('groupId')) id: string,
  ): Promise<void> {
    return this.groups.remove(caller, id);
  }

  @Get(':groupId/members')
  @RequirePermission('GROUPS', 'READ')
  members(
    @Ctx() caller: RequestContext,
    @Param('groupId', uuidParam('groupId')) id: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<GroupMemberResponseDto>> {
    return this.groups.members(caller, id, query);
  }

  @Post(':groupId/members')
  @Created('userId')
  @RequirePermission('GROUPS', 'WRITE')
  addMember(
    @Ctx() caller: RequestContext,
    @Param('groupId', uuidParam('groupId')) id: string,
    @Body() dto: AddMemberDto,
  ): Promise<GroupMemberResponseDto> {
    return this.groups.addMember(caller, id, dto);
  }

  @Delete(':groupId/members/:userId')
  @HttpCode(204)
  @RequirePermission('GROUPS', 'WRITE')
  removeMember(
    @Ctx() caller: RequestContext,
    @Param('groupId', uuidParam('groupId')) id: string,
    @Param('userId', uuidParam('userId')) userId: string,
  ): Promise<void> {
    return this.groups.removeMember(caller, id, userId);
  }
}
