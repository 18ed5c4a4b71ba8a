import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, Page, uuidParam } from '@agp/http';

import { CreatePolicyBindingDto } from './dto/create-policy-binding.dto';
import { ListPolicyBindingsQueryDto } from './dto/list-policy-bindings-query.dto';
import { PolicyBindingResponse, PolicyVersionResponse } from './dto/policy-responses';
import { UpdatePolicyBindingDto } from './dto/update-policy-binding.dto';
import { UpgradePolicyBindingQueryDto } from './dto/upgrade-policy-binding-query.dto';
import { PolicyBindingPromotionService } from './policy-binding-promotion.service';
import { PolicyBindingsService } from './policy-bindings.service';

@Controller('relay/v1/policy-bindings')
export class PolicyBindingsController {
  constructor(
    private readonly bindings: PolicyBindingsService,
    private readonly promotion: PolicyBindingPromotionService,
  ) {}

  @Post()
  @Created('bindingId')
  @RequirePermission('TENANT', 'WRITE')
  create(
    @Ctx() ctx: RequestContext,
    @Body() dto: CreatePolicyBindingDto,
  ): Promise<PolicyBindingResponse> {
    return this.bindings.create(ctx, dto);
  }

  @Get()
  @RequirePermission('TENANT', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListPolicyBindingsQueryDto,
  ): Promise<Page<PolicyBindingResponse>> {
    return this.bindings.list(ctx, query);
  }

  @Get(':bindingId')
  @RequirePermission('TENANT', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('bindingId', uuidParam('bindingId')) bindingId: string,
  ): Promise<PolicyBindingResponse> {
    return this.bindings.get(ctx, bindingId);
  }

  @Patch(':bindingId')
  @RequirePermission('TENANT', 'WRITE')
  update(
    @Ctx() ctx: RequestContext,
    @Param('bindingId', uuidParam('bindingId')) bindingId: string,
    @Body() dto: UpdatePolicyBindingDto,
  ): Promise<PolicyBindingResponse> {
    return this.bindings.update(ctx, bindingId, dto);
  }

  @Delete(':bindingId')
  @HttpCode(204)
  @RequirePermission('TENANT', 'WRITE')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('bindingId', uuidParam('bindingId')) bindingId: string,
  ): Promise<void> {
    return this.bindings.remove(ctx, bindingId);
  }

  /** Operation 4 (D16): a plain array (D31). */
  @Get(':bindingId/available-versions')
  @RequirePermission('TENANT', 'READ')
  availableVersions(
    @Ctx() ctx: RequestContext,
    @Param('bindingId', uuidParam('bindingId')) bindingId: string,
  ): Promise<PolicyVersionResponse[]> {
    return this.bindings.availableVersions(ctx, bindingId);
  }

  /** Operation 7 (D18, D10: TENANT:WRITE). */
  @Post(':bindingId/upgrade')
  @HttpCode(200)
  @RequirePermission('TENANT', 'WRITE')
  upgrade(
    @Ctx() ctx: RequestContext,
    @Param('bindingId', uuidParam('bindingId')) bindingId: string,
    @Query() query: UpgradePolicyBindingQueryDto,
  ): Promise<PolicyBindingResponse> {
    return this.bindings.upgrade(ctx, bindingId, query.targetVersion);
  }

  /** D49, G7: `targetVersion` absent: the version it shadowed. 409 when it already enforces. */
  @Post(':bindingId/promote')
  @HttpCode(200)
  @RequirePermission('TENANT', 'WRITE')
  promote(
    @Ctx() ctx: RequestContext,
    @Param('bindingId', uuidParam('bindingId')) bindingId: string,
    @Query() query: UpgradePolicyBindingQueryDto,
  ): Promise<PolicyBindingResponse> {
    return this.promotion.promote(ctx, bindingId, query.targetVersion);
  }
}
