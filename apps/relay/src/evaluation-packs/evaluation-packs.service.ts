import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { RequestContext } from '@agp/auth';
import { AdminChange } from '@agp/contracts';
import { Database, isUniqueViolation, Tx } from '@agp/database';
import { HttpProblem, Page, pageOf, pageOffset } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { EndpointDirectoryRepository } from '../decisions/endpoint-directory.repository';
import { UsersRepository } from '../users/users.repository';
import { IdentityProjections } from '../projections/identity-projections.service';
import { CreateEvaluationPackDto } from './dto/create-evaluation-pack.dto';
import { ListEvaluationPacksQueryDto } from './dto/list-evaluation-packs-query.dto';
import { EvaluationPackResponse } from './dto/pack-responses';
import { UpdateEvaluationPackDto } from './dto/update-evaluation-pack.dto';
import { EvaluationPacksErrorCode, EvaluationPacksException } from './evaluation-packs.exception';
import { EvaluationPacksRepository, PackRow } from './evaluation-packs.repository';
import { EvaluationRunsRepository } from './evaluation-runs.repository';
import { nextRunAfter } from './pack-schedule';
import { LiveDoubleDto } from './dto/live-double.dto';
import { LiveDouble } from './evaluation-pack.types';

/** Evaluation packs: operation 3 (D15), list, get, update, delete. */
@Injectable()
export class EvaluationPacksService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly packs: EvaluationPacksRepository,
    private readonly runs: EvaluationRunsRepository,
    private readonly users: UsersRepository,
    private readonly identities: IdentityProjections,
    private readonly directory: EndpointDirectoryRepository,
  ) {}

  async create(ctx: RequestContext, dto: CreateEvaluationPackDto): Promise<EvaluationPackResponse> {
    const id = randomUUID();
    await this.identities.ensure(ctx.tenantId, { users: [dto.ownerUserId] });
    return this.uniquely(dto.name, () =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        const owner = await this.owner(tx, ctx, dto.ownerUserId);
        const liveDoubles = await this.doubles(tx, ctx.tenantId, dto.liveDoubles ?? []);
        await this.packs.insertPack(tx, ctx.tenantId, {
          liveDoubles,
          scheduleExecutionMode: dto.scheduleExecutionMode ?? 'SIMULATED',
          id,
          name: dto.name,
          description: dto.description,
          ownerUserId: owner.id,
          ownerLabel: owner.label,
          enabled: dto.enabled ?? true,
          ...(dto.schedule
            ? {
                schedule: dto.schedule,
                nextRunAt: nextRunAfter(dto.schedule, new Date()).toISOString(),
              }
            : {}),
          alertOnFailure: dto.alertOnFailure ?? false,
        });
        const created = (await this.packs.findPack(tx, ctx.tenantId, id))!;
        await this.record(tx, ctx, 'CREATED', { after: created });
        return (await this.toResponses(tx, ctx.tenantId, [created]))[0];
      }),
    );
  }

  async list(
    ctx: RequestContext,
    query: ListEvaluationPacksQueryDto,
  ): Promise<Page<EvaluationPackResponse>> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const { items, total } = await this.packs.listPacks(
        tx,
        ctx.tenantId,
        query,
        query.pageSize,
        pageOffset(query),
      );
      return pageOf(await this.toResponses(tx, ctx.tenantId, items), total, query);
    });
  }

  async get(ctx: RequestContext, packId: string): Promise<EvaluationPackResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const pack = await this.mustFind(tx, ctx.tenantId, packId);
      return (await this.toResponses(tx, ctx.tenantId, [pack]))[0];
    });
  }

  async update(
    ctx: RequestContext,
    packId: string,
    dto: UpdateEvaluationPackDto,
  ): Promise<EvaluationPackResponse> {
    await this.identities.ensure(ctx.tenantId, { users: [dto.ownerUserId] });
    return this.uniquely(dto.name ?? '', () =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        const before = await this.mustFind(tx, ctx.tenantId, packId);
        const owner = dto.ownerUserId ? await this.owner(tx, ctx, dto.ownerUserId) : undefined;
        const { liveDoubles: doubles, ...changes } = dto;
        await this.packs.updatePack(tx, ctx.tenantId, packId, {
          ...changes,
          ...(doubles ? { liveDoubles: await this.doubles(tx, ctx.tenantId, doubles) } : {}),
          ownerUserId: owner?.id,
          ownerLabel: owner?.label,
        });
        await this.reschedule(tx, ctx.tenantId, before, dto);
        const updated = (await this.packs.findPack(tx, ctx.tenantId, packId))!;
        await this.record(tx, ctx, 'UPDATED', { before, after: updated });
        return (await this.toResponses(tx, ctx.tenantId, [updated]))[0];
      }),
    );
  }

  async remove(ctx: RequestContext, packId: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const pack = await this.mustFind(tx, ctx.tenantId, packId);
      await this.packs.deletePack(tx, ctx.tenantId, packId);
      await this.record(tx, ctx, 'DELETED', { before: pack });
    });
  }

  /**
   * G13: a new schedule, or a pack enabled again, is next due at the schedule's next minute from
   * now: runs missed while it was off are not made up.
   */
  private async reschedule(
    tx: Tx,
    tenantId: string,
    before: PackRow,
    dto: UpdateEvaluationPackDto,
  ): Promise<void> {
    const schedule =
      dto.schedule === undefined || dto.schedule === null ? before.schedule : dto.schedule;
    const isReenabled = dto.enabled === true && !before.enabled;
    if (schedule === before.schedule && !isReenabled) {
      return;
    }
    await this.packs.setSchedule(
      tx,
      tenantId,
      before.id,
      schedule || null,
      schedule ? nextRunAfter(schedule, new Date()) : null,
    );
  }

  /** D42: a pack's change, with its changed fields (runs are not administrative changes). */
  private async record(
    tx: Tx,
    ctx: RequestContext,
    change: AdminChange,
    values: { before?: PackRow; after?: PackRow },
  ): Promise<void> {
    const pack = (values.after ?? values.before)!;
    await recordAdminChange(this.outbox, tx, ctx, change, {
      target: { kind: 'EVALUATION_PACK', id: pack.id, name: pack.name },
      // The last run and the next due time move with every run; they are not administered.
      ignore: ['lastRunId', 'nextRunAt'],
      ...values,
    });
  }

  /**
   * G19, D12: one double per target, `url` or `doubleId` (a registered MCP server for an MCP
   * server, an agent for an agent, never the target itself); every wrong entry is listed.
   */
  private async doubles(tx: Tx, tenantId: string, dtos: LiveDoubleDto[]): Promise<LiveDouble[]> {
    const errors: Array<{ field: string; message: string }> = [];
    const seen = new Set<string>();
    for (const [i, d] of dtos.entries()) {
      const field = `liveDoubles[${i}]`;
      if ((d.url === undefined) === (d.doubleId === undefined)) {
        errors.push({ field, message: 'give exactly one of url and doubleId' });
      }
      if (seen.has(`${d.targetType}:${d.targetId}`)) {
        errors.push({ field, message: `a second double for ${d.targetType} ${d.targetId}` });
      }
      seen.add(`${d.targetType}:${d.targetId}`);
      if (d.doubleId === d.targetId) {
        errors.push({ field: `${field}.doubleId`, message: 'a target cannot be its own double' });
      } else if (
        d.doubleId &&
        !(await this.directory.describe(tx, tenantId, d.targetType, d.doubleId))
      ) {
        const kind = d.targetType === 'MCP_SERVER' ? 'an MCP server' : 'an agent';
        errors.push({ field: `${field}.doubleId`, message: `must name ${kind} of this tenant` });
      }
    }
    if (errors.length > 0) {
      throw HttpProblem.validation(errors);
    }
    return dtos.map((d) => ({
      targetType: d.targetType,
      targetId: d.targetId,
      ...(d.url ? { url: d.url } : { doubleId: d.doubleId }),
    }));
  }

  /** D15, D4: any owner but the caller is checked against the users projection. */
  private async owner(
    tx: Tx,
    ctx: RequestContext,
    ownerUserId: string | undefined,
  ): Promise<{ id: string; label?: string }> {
    const isCaller = ownerUserId === undefined || ownerUserId === ctx.principal.subject;
    if (isCaller && ctx.principal.kind === 'USER') {
      return { id: ctx.principal.subject, label: ctx.principal.label };
    }
    const user = ownerUserId ? await this.users.find(tx, ctx.tenantId, ownerUserId) : undefined;
    if (!user || user.status === 'DELETED') {
      const message = ownerUserId
        ? 'ownerUserId must name a user of this tenant'
        : 'ownerUserId is required when the caller is not a user';
      throw new EvaluationPacksException(EvaluationPacksErrorCode.InvalidOwner, message, [
        { field: 'ownerUserId', message },
      ]);
    }
    return { id: user.id, label: user.displayName ?? user.email };
  }

  async mustFind(tx: Tx, tenantId: string, packId: string): Promise<PackRow> {
    const pack = await this.packs.findPack(tx, tenantId, packId);
    if (!pack) {
      throw new EvaluationPacksException(
        EvaluationPacksErrorCode.PackNotFound,
        `evaluation pack ${packId} not found`,
      );
    }
    return pack;
  }

  private async toResponses(
    tx: Tx,
    tenantId: string,
    packs: PackRow[],
  ): Promise<EvaluationPackResponse[]> {
    const evaluations = await this.packs.listEvaluations(
      tx,
      tenantId,
      packs.map((p) => p.id),
    );
    const lastRuns = await this.runs.findSummaries(
      tx,
      tenantId,
      packs.flatMap((p) => (p.lastRunId ? [p.lastRunId] : [])),
    );
    return packs.map((pack) => ({
      id: pack.id,
      name: pack.name,
      description: pack.description,
      owner: { id: pack.ownerUserId, name: pack.ownerLabel ?? '' },
      enabled: pack.enabled,
      ...(pack.schedule ? { schedule: pack.schedule, nextRunAt: pack.nextRunAt } : {}),
      alertOnFailure: pack.alertOnFailure,
      liveDoubles: pack.liveDoubles,
      scheduleExecutionMode: pack.scheduleExecutionMode,
      evaluations: evaluations.filter((e) => e.packId === pack.id),
      lastRun: lastRuns.find((r) => r.runId === pack.lastRunId),
      createdAt: pack.createdAt,
      updatedAt: pack.updatedAt,
    }));
  }

  private async uniquely<T>(name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new EvaluationPacksException(
          EvaluationPacksErrorCode.NameTaken,
          `an evaluation pack named ${name} already exists`,
        );
      }
      throw error;
    }
  }
}
