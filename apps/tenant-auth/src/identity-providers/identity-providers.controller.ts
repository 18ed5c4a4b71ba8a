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
  Res,
} from '@nestjs/common';
import { RequirePermission } from '@agp/auth';
import { FastifyReply } from 'fastify';

import { created } from '../common/created';
import { Caller, CurrentCaller } from '../common/request-context';
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
  list(@CurrentCaller() caller: Caller): Promise<IdentityProviderResponseDto[]> {
    return this.providers.list(caller);
  }

  @Get(':providerId')
  @RequirePermission('IDENTITY_PROVIDERS', 'READ')
  get(
    @CurrentCaller() caller: Caller,
    @Param('providerId', ParseUUIDPipe) id: string,
  ): Promise<IdentityProviderResponseDto> {
    return this.providers.get(caller, id);
  }

  @Post()
  @RequirePermission('IDENTITY_PROVIDERS', 'WRITE')
  async create(
    @CurrentCaller() caller: Caller,
    @Body() dto: CreateIdentityProviderDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IdentityProviderResponseDto> {
    return created(reply, 'identity-providers', await this.providers.create(caller, dto));
  }

  @Patch(':providerId')
  @RequirePermission('IDENTITY_PROVIDERS', 'WRITE')
  update(
    @CurrentCaller() caller: Caller,
    @Param('providerId', ParseUUIDPipe) id: string,
    @Body() dto: UpdateIdentityProviderDto,
  ): Promise<IdentityProviderResponseDto> {
    return this.providers.update(caller, id, dto);
  }

  @Delete(':providerId')
  @HttpCode(204)
  @RequirePermission('IDENTITY_PROVIDERS', 'DELETE')
  remove(
    @CurrentCaller() caller: Caller,
    @Param('providerId', ParseUUIDPipe) id: string,
  ): Promise<void> {
    return this.providers.remove(caller, id);
  }

  @Post(':providerId/email-domains/:domain/verify')
  @HttpCode(200)
  @RequirePermission('IDENTITY_PROVIDERS', 'WRITE')
  verifyDomain(
    @CurrentCaller() caller: Caller,
    @Param('providerId', ParseUUIDPipe) id: string,
    @Param('domain') domain: string,
  ): Promise<IdentityProviderResponseDto> {
    return this.providers.verifyDomain(caller, id, domain);
  }
}
