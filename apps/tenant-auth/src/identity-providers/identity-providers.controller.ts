import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, uuidParam } from '@agp/http';

import { CreateIdentityProviderDto } from './dto/create-identity-provider.dto';
import { IdentityProviderResponseDto } from './dto/identity-provider-response.dto';
import { UpdateIdentityProviderDto } from './dto/update-identity-provider.dto';
import { IdentityProvidersService } from './identity-providers.service';

@Controller('tenant-auth/v1/identity-providers')
export class IdentityProvidersController {
  constructor(private readonly providers: IdentityProvidersService) {}

  /** Operation 5: the caller's tenant's providers, a plain array (D31). */
  @Get()
  @RequirePermission('IDENTITY_PROVIDERS', 'READ')
  list(@Ctx() caller: RequestContext): Promise<IdentityProviderResponseDto[]> {
    return this.providers.list(caller);
  }

  @Get(':providerId')
  @RequirePermission('IDENTITY_PROVIDERS', 'READ')
  get(
    @Ctx() caller: RequestContext,
    @Param('providerId', uuidParam('providerId')) id: string,
  ): Promise<IdentityProviderResponseDto> {
    return this.providers.get(caller, id);
  }

  @Post()
  @Created()
  @RequirePermission('IDENTITY_PROVIDERS', 'WRITE')
  create(
    @Ctx() caller: RequestContext,
    @Body() dto: CreateIdentityProviderDto,
  ): Promise<IdentityProviderResponseDto> {
    return this.providers.create(caller, dto);
  }

  @Patch(':providerId')
  @RequirePermission('IDENTITY_PROVIDERS', 'WRITE')
  update(
    @Ctx() caller: RequestContext,
    @Param('providerId', uuidParam('providerId')) id: string,
    @Body() dto: UpdateIdentityProviderDto,
  ): Promise<IdentityProviderResponseDto> {
    return this.providers.update(caller, id, dto);
  }

  @Delete(':providerId')
  @HttpCode(204)
  @RequirePermission('IDENTITY_PROVIDERS', 'DELETE')
  remove(
    @Ctx() caller: RequestContext,
    @Param('providerId', uuidParam('providerId')) id: string,
  ): Promise<void> {
    return this.providers.remove(caller, id);
  }

  @Post(':providerId/email-domains/:domain/verify')
  @HttpCode(200)
  @RequirePermission('IDENTITY_PROVIDERS', 'WRITE')
  verifyDomain(
    @Ctx() caller: RequestContext,
    @Param('providerId', uuidParam('providerId')) id: string,
    @Param('domain') domain: string,
  ): Promise<IdentityProviderResponseDto> {
    return this.providers.verifyDomain(caller, id, domain);
  }
}
