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

/** Agents' identities (D30): REGISTRY permissions. */
@Controller('tenant-auth/v1/agents')
export class AgentsController {
  constructor(private readonly clients: ClientsService) {}

  @Get()
  @RequirePermission('REGISTRY', 'READ')
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListClientsQueryDto,
  ): Promise<Page<ClientResponseDto>> {
    return this.clients.list('AGENT', caller, query);
  }

  @Get(':agentId')
  @RequirePermission('REGISTRY', 'READ')
  get(
    @CurrentCaller() caller: Caller,
    @Param('agentId', ParseUUIDPipe) id: string,
  ): Promise<ClientResponseDto> {
    return this.clients.get('AGENT', caller, id);
  }

  @Post()
  @RequirePermission('REGISTRY', 'WRITE')
  async create(
    @CurrentCaller() caller: Caller,
    @Body() dto: CreateClientDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ClientWithSecretResponseDto> {
    return created(reply, 'agents', await this.clients.create('AGENT', caller, dto));
  }

  @Patch(':agentId')
  @RequirePermission('REGISTRY', 'WRITE')
  update(
    @CurrentCaller() caller: Caller,
    @Param('agentId', ParseUUIDPipe) id: string,
    @Body() dto: UpdateClientDto,
  ): Promise<ClientResponseDto> {
    return this.clients.update('AGENT', caller, id, dto);
  }

  @Delete(':agentId')
  @HttpCode(204)
  @RequirePermission('REGISTRY', 'DELETE')
  remove(
    @CurrentCaller() caller: Caller,
    @Param('agentId', ParseUUIDPipe) id: string,
  ): Promise<void> {
    return this.clients.remove('AGENT', caller, id);
  }

  @Post(':agentId/rotate-secret')
  @HttpCode(200)
  @RequirePermission('REGISTRY', 'WRITE')
  rotateSecret(
    @CurrentCaller() caller: Caller,
    @Param('agentId', ParseUUIDPipe) id: string,
  ): Promise<ClientWithSecretResponseDto> {
    return this.clients.rotateSecret('AGENT', caller, id);
  }
}
