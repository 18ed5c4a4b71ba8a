import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { Ctx, Public, RequestContext, RequirePermission } from '@agp/auth';
import { uuidParam } from '@agp/http';
import { JSONWebKeySet } from 'jose';

import { InstallationLicences, LicenceView } from '../marketplace/installation-licences';
import { VerifyLicenceDto } from './dto/verify-licence.dto';
import { LicenceKeys } from './licence-keys.service';
import { LicenceCheck } from './licence.types';
import { Licences } from './licences.service';

/** D47, D59: verify, the public keys, and the publisher's revocation (MK20–MK28). */
@Controller('relay/v1/licences')
export class LicencesController {
  constructor(
    private readonly licences: Licences,
    private readonly keys: LicenceKeys,
    private readonly licensing: InstallationLicences,
  ) {}

  /** MK24: any signed-in principal of a tenant may ask, an agent's token included. */
  @Post('verify')
  @HttpCode(200)
  async verify(@Body() dto: VerifyLicenceDto): Promise<LicenceCheck> {
    return this.licences.check(dto.licence, {
      ...(dto.listingId ? { listingId: dto.listingId } : {}),
      ...(dto.tenantId ? { tenantId: dto.tenantId } : {}),
    });
  }

  /** D59: the keys route needs no token (the gateway lets it through as well). */
  @Get('keys')
  @Public()
  jwks(): Promise<JSONWebKeySet> {
    return this.keys.jwks();
  }

  @Post(':licenceId/revoke')
  @HttpCode(200)
  @RequirePermission('REGISTRY', 'READ')
  revoke(
    @Ctx() ctx: RequestContext,
    @Param('licenceId', uuidParam('licenceId')) id: string,
  ): Promise<LicenceView> {
    return this.licensing.revokeLicence(ctx, id);
  }
}
