import { Controller, Get, Inject, Query } from '@nestjs/common';
import { Ctx, Public, RequestContext, RequirePermission } from '@agp/auth';
import { JSONWebKeySet } from 'jose';

import { CheckpointPage, CheckpointsQueryService } from './checkpoints-query.service';
import { ListCheckpointsQueryDto } from './dto/list-checkpoints-query.dto';
import { VerifyQueryDto } from './dto/verify-query.dto';
import { IntegrityService, VerificationResult } from './integrity.service';
import { SigningKeysService } from './signing-keys.service';

@Controller('audit/v1/integrity')
export class IntegrityController {
  constructor(
    @Inject(IntegrityService) private readonly integrity: IntegrityService,
    @Inject(CheckpointsQueryService) private readonly checkpoints: CheckpointsQueryService,
    @Inject(SigningKeysService) private readonly keys: SigningKeysService,
  ) {}

  @Get('verify')
  @RequirePermission('AUDIT', 'READ')
  verify(@Ctx() ctx: RequestContext, @Query() query: VerifyQueryDto): Promise<VerificationResult> {
    return this.integrity.verify(
      ctx.tenantId,
      query.from ? new Date(query.from) : undefined,
      query.to ? new Date(query.to) : undefined,
    );
  }

  @Get('checkpoints')
  @RequirePermission('AUDIT', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListCheckpointsQueryDto,
  ): Promise<CheckpointPage> {
    return this.checkpoints.list(ctx.tenantId, query);
  }

  /** A12: public, like any JWKS: an auditor checks checkpoint signatures without an account. */
  @Get('keys')
  @Public()
  jwks(): Promise<JSONWebKeySet> {
    return this.keys.jwks();
  }
}
