import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { CreateUserDto } from './dto/create-user.dto';
import { ListUsersQueryDto } from './dto/list-users-query.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserResponseDto } from './dto/user-response.dto';
import { UsersService } from './users.service';

@Controller('tenant-auth/v1/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @RequirePermission('USERS', 'READ')
  list(
    @Ctx() caller: RequestContext,
    @Query() query: ListUsersQueryDto,
  ): Promise<Page<UserResponseDto>> {
    return this.users.list(caller, query);
  }

  @Get(':userId')
  @RequirePermission('USERS', 'READ')
  get(
    @Ctx() caller: RequestContext,
    @Param('userId', uuidParam('userId')) id: string,
  ): Promise<UserResponseDto> {
    return this.users.get(caller, id);
  }

  @Post()
  @Created()
  @RequirePermission('USERS', 'WRITE')
  create(@Ctx() caller: RequestContext, @Body() dto: CreateUserDto): Promise<UserResponseDto> {
    return this.users.create(caller, dto);
  }

  @Patch(':userId')
  @RequirePermission('USERS', 'WRITE')
  update(
    @Ctx() caller: RequestContext,
    @Param('userId', uuidParam('userId')) id: string,
    @Body() dto: UpdateUserDto,
  ): Promise<UserResponseDto> {
    return this.users.update(caller, id, dto);
  }

  @Delete(':userId')
  @HttpCode(204)
  @RequirePermission('USERS', 'DELETE')
  remove(
    @Ctx() caller: RequestContext,
    @Param('userId', uuidParam('userId')) id: string,
  ): Promise<void> {
    return this.users.remove(caller, id);
  }
}
