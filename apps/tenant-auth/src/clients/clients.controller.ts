import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Type,
} from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { PermissionEntity } from '@agp/contracts';
import { Created, Page, uuidParam } from '@agp/http';

import { ClientsService } from './clients.service';
import { ClientResponseDto, ClientWithSecretResponseDto } from './dto/client-response.dto';
import { CreateClientDto } from './dto/create-client.dto';
import { ListClientsQueryDto } from './dto/list-clients-query.dto';
import { UpdateClientDto } from './dto/update-client.dto';
import { ClientKind } from './client.types';

interface ClientsRoutes {
  /** The class name Nest logs and reports. */
  name: string;
  /** The collection under /tenant-auth/v1 (`agents`). */
  collection: string;
  /** The path parameter of one client (`agentId`), parsed as a UUID (D12). */
  idParam: string;
  /** The entity of the roles the routes need (READ, WRITE, DELETE). */
  permission: PermissionEntity;
}

/** The routes of a clients controller and what each answers (F24). */
export interface ClientsRouteHandlers {
  list(ctx: RequestContext, query: ListClientsQueryDto): Promise<Page<ClientResponseDto>>;
  get(ctx: RequestContext, id: string): Promise<ClientResponseDto>;
  create(ctx: RequestContext, dto: CreateClientDto): Promise<ClientWithSecretResponseDto>;
  update(ctx: RequestContext, id: string, dto: UpdateClientDto): Promise<ClientResponseDto>;
  remove(ctx: RequestContext, id: string): Promise<void>;
  rotateSecret(ctx: RequestContext, id: string): Promise<ClientWithSecretResponseDto>;
}

/** The one controller of a kind of client of the client_credentials grant (D7, D30). */
function clientsController(kind: ClientKind, routes: ClientsRoutes): Type<ClientsRouteHandlers> {
  const byId = `:${routes.idParam}`;
  const clientId = (): ParameterDecorator => Param(routes.idParam, uuidParam(routes.idParam));

  @Controller(`tenant-auth/v1/${routes.collection}`)
  class ClientsController implements ClientsRouteHandlers {
    constructor(private readonly clients: ClientsService) {}

    @Get()
    @RequirePermission(routes.permission, 'READ')
    list(
      @Ctx() ctx: RequestContext,
      @Query() query: ListClientsQueryDto,
    ): Promise<Page<ClientResponseDto>> {
      return this.clients.list(kind, ctx, query);
    }

    @Get(byId)
    @RequirePermission(routes.permission, 'READ')
    get(@Ctx() ctx: RequestContext, @clientId() id: string): Promise<ClientResponseDto> {
      return this.clients.get(kind, ctx, id);
    }

    @Post()
    @Created()
    @RequirePermission(routes.permission, 'WRITE')
    create(
      @Ctx() ctx: RequestContext,
      @Body() dto: CreateClientDto,
    ): Promise<ClientWithSecretResponseDto> {
      return this.clients.create(kind, ctx, dto);
    }

    @Patch(byId)
    @RequirePermission(routes.permission, 'WRITE')
    update(
      @Ctx() ctx: RequestContext,
      @clientId() id: string,
      @Body() dto: UpdateClientDto,
    ): Promise<ClientResponseDto> {
      return this.clients.update(kind, ctx, id, dto);
    }

    @Delete(byId)
    @HttpCode(204)
    @RequirePermission(routes.permission, 'DELETE')
    remove(@Ctx() ctx: RequestContext, @clientId() id: string): Promise<void> {
      return this.clients.remove(kind, ctx, id);
    }

    @Post(`${byId}/rotate-secret`)
    @HttpCode(200)
    @RequirePermission(routes.permission, 'WRITE')
    rotateSecret(
      @Ctx() ctx: RequestContext,
      @clientId() id: string,
    ): Promise<ClientWithSecretResponseDto> {
      return this.clients.rotateSecret(kind, ctx, id);
    }
  }
  Object.defineProperty(ClientsController, 'name', { value: routes.name });
  return ClientsController;
}

/** Agents' identities (D30): REGISTRY permissions. */
export const AgentsController = clientsController('AGENT', {
  name: 'AgentsController',
  collection: 'agents',
  idParam: 'agentId',
  permission: 'REGISTRY',
});

/** Service accounts (D30): API_KEYS permissions; they hold API credentials. */
export const ServiceAccountsController = clientsController('SERVICE', {
  name: 'ServiceAccountsController',
  collection: 'service-accounts',
  idParam: 'serviceAccountId',
  permission: 'API_KEYS',
});
