import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { OwnerStatus } from '@agp/contracts';
import { Database, isUniqueViolation, Tx } from '@agp/database';
import { FieldError, Page, pageOf, pageOffset } from '@agp/http';

import { RELAY_DATABASE } from '../database/tokens';
import { UsersRepository } from '../users/users.repository';
import { IdentityProjections } from '../projections/identity-projections.service';
import { CreateGovernanceRecordDto } from './dto/create-governance-record.dto';
import { ListGovernanceRecordsQueryDto } from './dto/list-governance-records-query.dto';
import { ReviewGovernanceRecordDto } from './dto/review-governance-record.dto';
import { UpdateGovernanceRecordDto } from './dto/update-governance-record.dto';
import { readableSubjectTypes, requireOn } from './governance-access';
import { ChangeContext, GovernanceEvents } from './governance-events';
import { GovernanceRecordRow, attestationStaleAt, reviewDueAt } from './governance-snapshot';
import { GovernanceErrorCode, GovernanceException } from './governance.exception';
import { GovernanceRepository, RecordChanges } from './governance.repository';
import { GovernanceRecord } from './governance.types';
import { RiskTiersService } from './risk-tiers.service';

/** Governance records of the registry (issue 17): tier, owner, reviews; each change audited. */
@Injectable()
export class GovernanceRecordsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly repository: GovernanceRepository,
    private readonly users: UsersRepository,
    private readonly tiers: RiskTiersService,
    private readonly events: GovernanceEvents,
    private readonly identities: IdentityProjections,
  ) {}

  async create(ctx: RequestContext, dto: CreateGovernanceRecordDto): Promise<GovernanceRecord> {
    requireOn(ctx.principal, dto.subjectType, 'WRITE');
    await this.identities.ensure(ctx.tenantId, {
      agents: dto.subjectType === 'AGENT' ? [dto.subjectId] : [],
      users: [dto.ownerUserId],
    });
    try {
      return await this.database.inTenant(ctx.tenantId, async (tx) => {
        const tiers = await this.tiers.tiersOf(tx, ctx.tenantId);
        const errors: FieldError[] = [];
        const subjectName = await this.repository.subjectName(
          tx,
          ctx.tenantId,
          dto.subjectType,
          dto.subjectId,
        );
        if (!subjectName) {
          errors.push({
            field: 'subjectId',
            message: `no ${dto.subjectType} ${dto.subjectId} in this tenant`,
          });
        }
        errors.push(...this.tiers.tierProblems(tiers, dto.riskTier));
        const owner = await this.ownerProblems(tx, ctx.tenantId, dto.ownerUserId, errors);
        if (errors.length > 0) {
          throw GovernanceException.invalid(errors);
        }
        const now = new Date();
        const record = await this.repository.insertRecord(tx, ctx.tenantId, {
          id: randomUUID(),
          subjectType: dto.subjectType,
          subjectId: dto.subjectId,
          subjectName: subjectName!,
          riskTier: dto.riskTier,
          ownerUserId: dto.ownerUserId,
          ownerStatus: owner,
          reviewDueAt: reviewDueAt(tiers, { riskTier: dto.riskTier, createdAt: now }),
        });
        await this.events.recordChange(
          tx,
          this.context(ctx),
          'RECORD_CREATED',
          tiers,
          record,
          'governance record created',
          {},
          false,
          { after: record },
        );
        return this.toResponse(tx, ctx.tenantId, record);
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new GovernanceException(
          GovernanceErrorCode.AlreadyGoverned,
          `${dto.subjectType} ${dto.subjectId} already has a governance record`,
        );
      }
      throw error;
    }
  }

  async list(
    ctx: RequestContext,
    query: ListGovernanceRecordsQueryDto,
  ): Promise<Page<GovernanceRecord>> {
    const readable = readableSubjectTypes(ctx.principal);
    if (query.subjectType) {
      requireOn(ctx.principal, query.subjectType, 'READ');
    }
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const { items, total } = await this.repository.listRecords(
        tx,
        ctx.tenantId,
        { ...query, subjectTypes: query.subjectType ? [query.subjectType] : readable },
        query.pageSize,
        pageOffset(query),
      );
      return pageOf(await this.toResponses(tx, ctx.tenantId, items), total, query);
    });
  }

  async get(ctx: RequestContext, id: string): Promise<GovernanceRecord> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const record = await this.mustFind(tx, ctx, id, 'READ');
      return this.toResponse(tx, ctx.tenantId, record);
    });
  }

  async update(
    ctx: RequestContext,
    id: string,
    dto: UpdateGovernanceRecordDto,
  ): Promise<GovernanceRecord> {
    await this.identities.ensure(ctx.tenantId, { users: [dto.ownerUserId] });
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = await this.mustFind(tx, ctx, id, 'WRITE', true);
      const tiers = await this.tiers.tiersOf(tx, ctx.tenantId);
      const errors: FieldError[] = [];
      const changes: RecordChanges = {};
      if (dto.riskTier !== undefined) {
        errors.push(...this.tiers.tierProblems(tiers, dto.riskTier ?? undefined));
        changes.riskTier = dto.riskTier ?? undefined;
        changes.reviewDueAt = reviewDueAt(tiers, { ...current, riskTier: changes.riskTier });
      }
      if (dto.ownerUserId !== undefined) {
        changes.ownerUserId = dto.ownerUserId ?? undefined;
        changes.ownerStatus = await this.ownerProblems(
          tx,
          ctx.tenantId,
          changes.ownerUserId,
          errors,
        );
      }
      if (errors.length > 0) {
        throw GovernanceException.invalid(errors);
      }
      if (Object.keys(changes).length === 0) {
        return this.toResponse(tx, ctx.tenantId, current);
      }
      const updated = await this.repository.updateRecord(tx, ctx.tenantId, id, changes);
      const what = [
        ...(dto.riskTier !== undefined ? [`risk tier ${updated.riskTier ?? 'cleared'}`] : []),
        ...(dto.ownerUserId !== undefined ? [`owner ${updated.ownerUserId ?? 'cleared'}`] : []),
      ].join(', ');
      await this.events.recordChange(
        tx,
        this.context(ctx),
        'RECORD_UPDATED',
        tiers,
        updated,
        what,
        {
          previousRiskTier: current.riskTier ?? null,
          previousOwnerUserId: current.ownerUserId ?? null,
        },
        false,
        { before: current, after: updated },
      );
      return this.toResponse(tx, ctx.tenantId, updated);
    });
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = await this.mustFind(tx, ctx, id, 'DELETE', true);
      const tiers = await this.tiers.tiersOf(tx, ctx.tenantId);
      await this.events.recordChange(
        tx,
        this.context(ctx),
        'RECORD_DELETED',
        tiers,
        { ...current, revision: current.revision + 1 },
        'governance record deleted',
        {},
        true,
        { before: current },
      );
      await this.repository.deleteRecord(tx, ctx.tenantId, id);
    });
  }

  /** A review moves the next due date one cadence of the tier on (G2). */
  async review(
    ctx: RequestContext,
    id: string,
    dto: ReviewGovernanceRecordDto,
  ): Promise<GovernanceRecord> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = await this.mustFind(tx, ctx, id, 'WRITE', true);
      const tiers = await this.tiers.tiersOf(tx, ctx.tenantId);
      if (!current.riskTier) {
        throw GovernanceException.invalid([
          {
            field: 'riskTier',
            message: 'a record without a risk tier cannot be reviewed; classify it first',
          },
        ]);
      }
      const now = new Date();
      const updated = await this.repository.updateRecord(tx, ctx.tenantId, id, {
        lastReviewedAt: now,
        lastReviewedByLabel: ctx.principal.label,
        reviewDueAt: reviewDueAt(tiers, { ...current, lastReviewedAt: now }),
      });
      await this.events.recordChange(
        tx,
        this.context(ctx),
        'REVIEWED',
        tiers,
        updated,
        'reviewed',
        {
          ...(dto.note ? { note: dto.note } : {}),
        },
        false,
        { before: current, after: updated },
      );
      return this.toResponse(tx, ctx.tenantId, updated);
    });
  }

  /** The record, checked against the caller's role on its subject; another tenant's is a 404. */
  async mustFind(
    tx: Tx,
    ctx: RequestContext,
    id: string,
    permission: 'READ' | 'WRITE' | 'DELETE',
    forUpdate = false,
  ): Promise<GovernanceRecordRow> {
    const record = await this.repository.findRecord(tx, ctx.tenantId, id, forUpdate);
    if (!record) {
      throw new GovernanceException(
        GovernanceErrorCode.RecordNotFound,
        `governance record ${id} not found`,
      );
    }
    requireOn(ctx.principal, record.subjectType, permission);
    return record;
  }

  context(ctx: RequestContext): ChangeContext {
    return { ...eventContext(ctx), actor: actorOf(ctx) };
  }

  async toResponse(
    tx: Tx,
    tenantId: string,
    record: GovernanceRecordRow,
  ): Promise<GovernanceRecord> {
    const [response] = await this.toResponses(tx, tenantId, [record]);
    return response;
  }

  private async toResponses(
    tx: Tx,
    tenantId: string,
    records: GovernanceRecordRow[],
  ): Promise<GovernanceRecord[]> {
    const ids = records.map((record) => record.id);
    const tiers = await this.tiers.tiersOf(tx, tenantId);
    const attested = await this.repository.latestAttestedAt(tx, tenantId, ids);
    const incidents = await this.repository.openIncidents(tx, tenantId, ids);
    return records.map((record) => {
      const attestedAt = attested.get(record.id);
      return {
        id: record.id,
        subjectType: record.subjectType,
        subjectId: record.subjectId,
        subjectName: record.subjectName,
        riskTier: record.riskTier ?? null,
        ownerUserId: record.ownerUserId ?? null,
        ownerStatus: record.ownerStatus,
        lastReviewedAt: record.lastReviewedAt?.toISOString() ?? null,
        lastReviewedByLabel: record.lastReviewedByLabel ?? null,
        reviewDueAt: record.reviewDueAt?.toISOString() ?? null,
        attestedAt: attestedAt?.toISOString() ?? null,
        attestationStaleAt: attestationStaleAt(tiers, record, attestedAt)?.toISOString() ?? null,
        openIncidents: incidents.get(record.id)?.length ?? 0,
        revision: record.revision,
        createdAt: record.createdAt.toISOString(),
        updatedAt: record.updatedAt.toISOString(),
      };
    });
  }

  /** An owner must be an active user of the tenant (D15's rule for owners); adds the 400 otherwise. */
  private async ownerProblems(
    tx: Tx,
    tenantId: string,
    ownerUserId: string | undefined,
    errors: FieldError[],
  ): Promise<OwnerStatus> {
    if (!ownerUserId) {
      return 'NONE';
    }
    const user = await this.users.find(tx, tenantId, ownerUserId);
    if (!user) {
      errors.push({ field: 'ownerUserId', message: `no user ${ownerUserId} in this tenant` });
    } else if (user.status !== 'ACTIVE') {
      errors.push({ field: 'ownerUserId', message: `user ${ownerUserId} is ${user.status}` });
    }
    return 'ACTIVE';
  }
}
