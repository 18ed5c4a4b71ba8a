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
import { ClientsService } from './clients.service';
import { ClientResponseDto, ClientWithSecretResponseDto } from './dto/client-response.dto';
import { CreateClientDto } from './dto/create-client.dto';
import { ListClientsQueryDto } from './dto/list-clients-query.dto';
import { UpdateClientDto } from './dto/update-client.dto';

/** Service accounts (D30): API_KEYS permissions; they hold API credentials. */
@Controller('tenant-auth/v1/service-accounts')
export class ServiceAccountsController {
  constructor(private readonly clients: ClientsService) {}

  @Get()
  @RequirePermission('API_KEYS', 'READ')
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListClientsQueryDto,
  ): Promise<Page<ClientResponseDto>> {
    return this.clients.list('SERVICE', caller, query);
  }

  @Get(':serviceAccountId')
  @RequirePermission('API_KEYS', 'READ')
  get(
    @CurrentCaller() caller: Caller,
    @Param('serviceAccountId', ParseUUIDPipe) id: string,
  ): Promise<ClientResponseDto> {
    return this.clients.get('SERVICE', caller, id);
  }

  @Post()
  @RequirePermission('API_KEYS', 'WRITE')
  async create(
    @CurrentCaller() caller: Caller,
    @Body() dto: CreateClientDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ClientWithSecretResponseDto> {
    return created(reply, 'service-accounts', await this.clients.create('SERVICE', caller, dto));
  }

  @Patch(':serviceAccountId')
  @RequirePermission('API_KEYS', 'WRITE')
  update(
    @CurrentCaller() caller: Caller,
    @Param('serviceAccountId', ParseUUIDPipe) id: string,
    @Body() dto: UpdateClientDto,
  ): Promise<ClientResponseDto> {
    return this.clients.update('SERVICE', caller, id, dto);
  }

  @Delete(':serviceAccountId')
  @HttpCode(204)
  @RequirePermission('API_KEYS', 'DELETE')
  remove(
    @CurrentCaller() caller: Caller,
    @Param('serviceAccountId', ParseUUIDPipe) id: string,
  ): Promise<void> {
    return this.clients.remove('SERVICE', caller, id);
  }

  @Post(':serviceAccountId/rotate-secret')
  @HttpCode(200)
  @RequirePermission('API_KEYS', 'WRITE')
  rotateSecret(
    @CurrentCaller() caller: Caller,
    @Param('serviceAccountId', ParseUUIDPipe) id: string,
  ): Promise<ClientWithSecretResponseDto> {
    return this.clients.rotateSecret('SERVICE', caller, id);
  }
}
