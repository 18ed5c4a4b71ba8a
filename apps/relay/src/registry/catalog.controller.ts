import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  InjectionToken,
  Param,
  Patch,
  Post,
  Query,
  Type,
} from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { PermissionEntity } from '@agp/contracts';
import { Created, Page, PageQueryDto, uuidParam } from '@agp/http';

import type { CatalogService } from './catalog.service';
import { ListCatalogQueryDto } from './list-catalog-query.dto';

/** What answers a registry resource's routes: a CatalogService, or a service with its methods. */
export interface CatalogOperations<Entry = unknown> {
  create(ctx: RequestContext, values: Record<string, unknown>): Promise<Entry>;
  list(ctx: RequestContext, query: PageQueryDto): Promise<Page<Entry>>;
  get(ctx: RequestContext, id: string): Promise<Entry>;
  update(ctx: RequestContext, id: string, values: Record<string, unknown>): Promise<Entry>;
  remove(ctx: RequestContext, id: string): Promise<void>;
}

export type CatalogRoute = keyof CatalogOperations;

/** F24: the compiler's view of these is what the OpenAPI document says each route returns. */
export type CatalogRoutes<Operations> = Pick<Operations, CatalogRoute & keyof Operations>;

export interface CatalogControllerOptions<Operations = CatalogService> {
  name: string;
  path: string;
  /** The path parameter of one entry (`channelId`), parsed as a UUID (D12). */
  idParam: string;
  /** The entity of the roles the routes need: READ to read, WRITE to change, DELETE to remove. */
  permission: PermissionEntity;
  /** The provider that answers: `CHANNELS_CATALOG`, `MCP_SERVERS_CATALOG` (CatalogServices) … */
  operations: Type<Operations> | Exclude<InjectionToken, Type>;
  createDto?: Type;
  updateDto: Type;
  listQuery?: Type;
  routes?: readonly CatalogRoute[];
}

/** Issue 19, D31: the one controller shape of a registry resource. */
export function catalogController<Operations = CatalogService>(
  options: CatalogControllerOptions<Operations>,
): Type<CatalogRoutes<Operations>> {
  const { permission, idParam } = options;
  const served = new Set(options.routes ?? ['create', 'list', 'get', 'update', 'remove']);
  if (!options.createDto) {
    served.delete('create');
  }
  const id = `:${idParam}`;

  @Controller(options.path)
  class CatalogController {
    constructor(@Inject(options.operations) readonly operations: CatalogOperations) {}

    create(ctx: RequestContext, dto: object): Promise<unknown> {
      return this.operations.create(ctx, { ...dto });
    }

    list(ctx: RequestContext, query: PageQueryDto): Promise<Page<unknown>> {
      return this.operations.list(ctx, query);
    }

    get(ctx: RequestContext, entryId: string): Promise<unknown> {
      return this.operations.get(ctx, entryId);
    }

    update(ctx: RequestContext, entryId: string, dto: object): Promise<unknown> {
      return this.operations.update(ctx, entryId, { ...dto });
    }

    remove(ctx: RequestContext, entryId: string): Promise<void> {
      return this.operations.remove(ctx, entryId);
    }
  }

  const route = (
    name: CatalogRoute,
    decorators: MethodDecorator[],
    params: ParameterDecorator[],
    // ValidationPipe validates a body or query against the parameter's design type; a generic
    // method has none, so the DTO classes are recorded here as the compiler would have.
    types: unknown[],
  ): void => {
    if (!served.has(name)) {
      return;
    }
    const proto = CatalogController.prototype;
    params.forEach((param, index) => param(proto, name, index));
    Reflect.defineMetadata('design:paramtypes', types, proto, name);
    const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
    for (const decorate of [...decorators].reverse()) {
      decorate(proto, name, descriptor);
    }
  };
  const entryId = (): ParameterDecorator => Param(idParam, uuidParam(idParam));

  route(
    'create',
    [Post(), Created(), RequirePermission(permission, 'WRITE')],
    [Ctx(), Body()],
    [Object, options.createDto],
  );
  route(
    'list',
    [Get(), RequirePermission(permission, 'READ')],
    [Ctx(), Query()],
    [Object, options.listQuery ?? ListCatalogQueryDto],
  );
  route(
    'get',
    [Get(id), RequirePermission(permission, 'READ')],
    [Ctx(), entryId()],
    [Object, String],
  );
  route(
    'update',
    [Patch(id), RequirePermission(permission, 'WRITE')],
    [Ctx(), entryId(), Body()],
    [Object, String, options.updateDto],
  );
  route(
    'remove',
    [Delete(id), HttpCode(204), RequirePermission(permission, 'DELETE')],
    [Ctx(), entryId()],
    [Object, String],
  );
  Object.defineProperty(CatalogController, 'name', { value: options.name });
  return CatalogController as unknown as Type<CatalogRoutes<Operations>>;
}
