import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext } from '@agp/auth';
import { Created, Page, PageQueryDto, uuidParam } from '@agp/http';

import { CreateAttestationDto } from './dto/create-attestation.dto';
import { ListIncidentsQueryDto } from './dto/list-incidents-query.dto';
import { OpenIncidentDto } from './dto/open-incident.dto';
import { ReportIncidentDto } from './dto/report-incident.dto';
import { GovernanceActivityService } from './governance-activity.service';
import { Attestation, Incident } from './governance.types';

/** Attestations and incidents of one record (issue 17); guarded by the record's subject role (G4). */
@Controller('relay/v1/governance/records/:recordId')
export class GovernanceActivityController {
  constructor(private readonly activity: GovernanceActivityService) {}

  @Post('attestations')
  @Created()
  attest(
    @Ctx() ctx: RequestContext,
    @Param('recordId', uuidParam('recordId')) recordId: string,
    @Body() dto: CreateAttestationDto,
  ): Promise<Attestation> {
    return this.activity.attest(ctx, recordId, dto);
  }

  @Get('attestations')
  attestations(
    @Ctx() ctx: RequestContext,
    @Param('recordId', uuidParam('recordId')) recordId: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<Attestation>> {
    return this.activity.attestations(ctx, recordId, query);
  }

  @Post('incidents')
  @Created()
  open(
    @Ctx() ctx: RequestContext,
    @Param('recordId', uuidParam('recordId')) recordId: string,
    @Body() dto: OpenIncidentDto,
  ): Promise<Incident> {
    return this.activity.open(ctx, recordId, dto);
  }

  @Get('incidents')
  incidents(
    @Ctx() ctx: RequestContext,
    @Param('recordId', uuidParam('recordId')) recordId: string,
    @Query() query: ListIncidentsQueryDto,
  ): Promise<Page<Incident>> {
    return this.activity.incidents(ctx, recordId, query);
  }

  @Get('incidents/:incidentId')
  incident(
    @Ctx() ctx: RequestContext,
    @Param('recordId', uuidParam('recordId')) recordId: string,
    @Param('incidentId', uuidParam('incidentId')) incidentId: string,
  ): Promise<Incident> {
    return this.activity.incident(ctx, recordId, incidentId);
  }

  @Post('incidents/:incidentId/report')
  @HttpCode(200)
  report(
    @Ctx() ctx: RequestContext,
    @Param('recordId', uuidParam('recordId')) recordId: string,
    @Param('incidentId', uuidParam('incidentId')) incidentId: string,
    @Body() dto: ReportIncidentDto,
  ): Promise<Incident> {
    return this.activity.report(ctx, recordId, incidentId, dto);
  }
}
