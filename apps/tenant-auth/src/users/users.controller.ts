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

import { created } from '../common/created';
import { Caller, CurrentCaller } from '../common/request-context';
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
    @CurrentCaller() caller: Caller,
    @Query() query: ListUsersQueryDto,
  ): Promise<Page<UserResponseDto>> {
    return this.users.list(caller, query);
  }

  @Get(':userId')
  @RequirePermission('USERS', 'READ')
  get(
    @CurrentCaller() caller: Caller,
    @Param('userId', ParseUUIDPipe) id: string,
  ): Promise<UserResponseDto> {
    return this.users.get(caller, id);
  }

  @Post()
  @RequirePermission('USERS', 'WRITE')
  async create(
    @CurrentCaller() caller: Caller,
    @Body() dto: CreateUserDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UserResponseDto> {
    return created(reply, 'users', await this.users.create(caller, dto));
  }

  @Patch(':userId')
  @RequirePermission('USERS', 'WRITE')
  update(
    @CurrentCaller() caller: Caller,
    @Param('userId', ParseUUIDPipe) id: string,
    @Body() dto: UpdateUserDto,
  ): Promise<UserResponseDto> {
    return this.users.update(caller, id, dto);
  }

  @Delete(':userId')
  @HttpCode(204)
  @RequirePermission('USERS', 'DELETE')
  remove(
    @CurrentCaller() caller: Caller,
    @Param('userId', ParseUUIDPipe) id: string,
  ): Promise<void> {
    return this.users.remove(caller, id);
  }
}
