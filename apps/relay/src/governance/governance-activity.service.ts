import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database } from '@agp/database';
import { Page, PageQueryDto, pageOf, pageOffset } from '@agp/http';

import { RELAY_DATABASE } from '../database/tokens';
import { CreateAttestationDto } from './dto/create-attestation.dto';
import { ListIncidentsQueryDto } from './dto/list-incidents-query.dto';
import { OpenIncidentDto } from './dto/open-incident.dto';
import { ReportIncidentDto } from './dto/report-incident.dto';
import { GovernanceEvents } from './governance-events';
import { addDays } from './governance-snapshot';
import { GovernanceErrorCode, GovernanceException } from './governance.exception';
import { GovernanceRepository } from './governance.repository';
import { Attestation, Incident } from './governance.types';
import { GovernanceRecordsService } from './governance-records.service';
import { RiskTiersService } from './risk-tiers.service';
import { UNCLASSIFIED_INCIDENT_REPORT_DAYS, tierNamed } from './risk-tiers';

/** Attestations and incident reports on a governance record (issue 17), each change audited. */
@Injectable()
export class GovernanceActivityService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly repository: GovernanceRepository,
    private readonly records: GovernanceRecordsService,
    private readonly tiers: RiskTiersService,
    private readonly events: GovernanceEvents,
  ) {}

  async attest(
    ctx: RequestContext,
    recordId: string,
    dto: CreateAttestationDto,
  ): Promise<Attestation> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const record = await this.records.mustFind(tx, ctx, recordId, 'WRITE', true);
      const attestation = await this.repository.insertAttestation(tx, ctx.tenantId, {
        id: randomUUID(),
        recordId,
        statement: dto.statement,
        attestedBy: ctx.principal.subject,
        attestedByLabel: ctx.principal.label,
      });
      const updated = await this.repository.updateRecord(tx, ctx.tenantId, recordId, {});
      await this.events.recordChange(
        tx,
        this.records.context(ctx),
        'ATTESTED',
        await this.tiers.tiersOf(tx, ctx.tenantId),
        updated,
        `attested: ${dto.statement}`,
        { attestationId: attestation.id, previousRevision: record.revision },
      );
      return attestation;
    });
  }

  async attestations(
    ctx: RequestContext,
    recordId: string,
    query: PageQueryDto,
  ): Promise<Page<Attestation>> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.records.mustFind(tx, ctx, recordId, 'READ');
      const { items, total } = await this.repository.listAttestations(
        tx,
        ctx.tenantId,
        recordId,
        query.pageSize,
        pageOffset(query),
      );
      return pageOf(items, total, query);
    });
  }

  /** G3: the report is due the tier's incidentReportDays after now unless the caller sets a date. */
  async open(ctx: RequestContext, recordId: string, dto: OpenIncidentDto): Promise<Incident> {
    const now = new Date();
    if (dto.reportDueAt && new Date(dto.reportDueAt) <= now) {
      throw GovernanceException.invalid([
        { field: 'reportDueAt', message: 'reportDueAt must lie in the future' },
      ]);
    }
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const record = await this.records.mustFind(tx, ctx, recordId, 'WRITE', true);
      const tiers = await this.tiers.tiersOf(tx, ctx.tenantId);
      const days =
        tierNamed(tiers, record.riskTier)?.incidentReportDays ?? UNCLASSIFIED_INCIDENT_REPORT_DAYS;
      const incident = await this.repository.insertIncident(tx, ctx.tenantId, {
        id: randomUUID(),
        recordId,
        title: dto.title,
        description: dto.description ?? null,
        severity: dto.severity,
        openedBy: ctx.principal.subject,
        openedByLabel: ctx.principal.label,
        reportDueAt: (dto.reportDueAt
          ? new Date(dto.reportDueAt)
          : addDays(now, days)
        ).toISOString(),
      });
      const updated = await this.repository.updateRecord(tx, ctx.tenantId, recordId, {});
      await this.events.recordChange(
        tx,
        this.records.context(ctx),
        'INCIDENT_OPENED',
        tiers,
        updated,
        `incident opened: ${dto.title}`,
        {
          incidentId: incident.id,
          severity: incident.severity,
          reportDueAt: incident.reportDueAt,
        },
      );
      return incident;
    });
  }

  async incidents(
    ctx: RequestContext,
    recordId: string,
    query: ListIncidentsQueryDto,
  ): Promise<Page<Incident>> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.records.mustFind(tx, ctx, recordId, 'READ');
      const { items, total } = await this.repository.listIncidents(
        tx,
        ctx.tenantId,
        recordId,
        query.status,
        query.pageSize,
        pageOffset(query),
      );
      return pageOf(items, total, query);
    });
  }

  async incident(ctx: RequestContext, recordId: string, incidentId: string): Promise<Incident> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.records.mustFind(tx, ctx, recordId, 'READ');
      return this.mustFindIncident(
        await this.repository.findIncident(tx, ctx.tenantId, recordId, incidentId),
        incidentId,
      );
    });
  }

  /** Filing the report closes the incident's gap; a report is filed once (409 after). */
  async report(
    ctx: RequestContext,
    recordId: string,
    incidentId: string,
    dto: ReportIncidentDto,
  ): Promise<Incident> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.records.mustFind(tx, ctx, recordId, 'WRITE', true);
      const incident = this.mustFindIncident(
        await this.repository.findIncident(tx, ctx.tenantId, recordId, incidentId),
        incidentId,
      );
      if (incident.status !== 'OPEN') {
        throw new GovernanceException(
          GovernanceErrorCode.IncidentNotOpen,
          `incident ${incidentId} is ${incident.status}; only an OPEN incident takes a report`,
        );
      }
      const reported = await this.repository.reportIncident(
        tx,
        ctx.tenantId,
        incidentId,
        dto.report,
        ctx.principal.label,
      );
      const updated = await this.repository.updateRecord(tx, ctx.tenantId, recordId, {});
      await this.events.recordChange(
        tx,
        this.records.context(ctx),
        'INCIDENT_REPORTED',
        await this.tiers.tiersOf(tx, ctx.tenantId),
        updated,
        `incident report filed: ${incident.title}`,
        { incidentId },
      );
      return reported;
    });
  }

  private mustFindIncident(incident: Incident | undefined, incidentId: string): Incident {
    if (!incident) {
      throw new GovernanceException(
        GovernanceErrorCode.IncidentNotFound,
        `incident ${incidentId} not found`,
      );
    }
    return incident;
  }
}
