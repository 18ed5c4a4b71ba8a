import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { CreateTenantDto } from './dto/create-tenant.dto';
import { ListTenantsQueryDto } from './dto/list-tenants-query.dto';
import { CreatedTenantResponseDto, TenantResponseDto } from './dto/tenant-response.dto';
import { UpdateTenantDto } from './dto/update-tenant.dto';
import { TenantsService } from './tenants.service';

@Controller('tenant-auth/v1/tenants')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Get()
  @RequirePermission('TENANT', 'READ')
  list(
    @Ctx() caller: RequestContext,
    @Query() query: ListTenantsQueryDto,
  ): Promise<Page<TenantResponseDto>> {
    return this.tenants.list(caller, query);
  }

  @Get(':tenantId')
  @RequirePermission('TENANT', 'READ')
  get(
    @Ctx() caller: RequestContext,
    @Param('tenantId', uuidParam('tenantId')) id: string,
  ): Promise<TenantResponseDto> {
    return this.tenants.get(caller, id);
  }

  @Post()
  @Created()
  @RequirePermission('TENANT', 'ADMIN')
  create(
    @Ctx() caller: RequestContext,
    @Body() dto: CreateTenantDto,
  ): Promise<CreatedTenantResponseDto> {
    return this.tenants.create(caller, dto);
  }

  @Patch(':tenantId')
  @RequirePermission('TENANT', 'WRITE')
  update(
    @Ctx() caller: RequestContext,
    @Param('tenantId', uuidParam('tenantId')) id: string,
    @Body() dto: UpdateTenantDto,
  ): Promise<TenantResponseDto> {
    return this.tenants.update(caller, id, dto);
  }

  @Delete(':tenantId')
  @HttpCode(204)
  @RequirePermission('TENANT', 'ADMIN')
  remove(
    @Ctx() caller: RequestContext,
    @Param('tenantId', uuidParam('tenantId')) id: string,
  ): Promise<void> {
    return this.tenants.remove(caller, id);
  }
}
