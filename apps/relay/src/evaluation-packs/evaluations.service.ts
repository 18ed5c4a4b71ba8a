import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { RequestContext } from '@agp/auth';
import { ChangeTarget } from '@agp/contracts';
import { Database } from '@agp/database';
import { Page, PageQueryDto, pageOf, pageOffset } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { CreateEvaluationDto, HopDto, UpdateEvaluationDto } from './dto/evaluation.dto';
import { EvaluationResponse, Hop } from './dto/pack-responses';
import { EvaluationPacksErrorCode, EvaluationPacksException } from './evaluation-packs.exception';
import { EvaluationPacksRepository } from './evaluation-packs.repository';
import { EvaluationPacksService } from './evaluation-packs.service';

/** Evaluations and their hops inside a pack (D15). */
@Injectable()
export class EvaluationsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly packs: EvaluationPacksRepository,
    private readonly packService: EvaluationPacksService,
  ) {}

  async create(
    ctx: RequestContext,
    packId: string,
    dto: CreateEvaluationDto,
  ): Promise<EvaluationResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.packService.mustFind(tx, ctx.tenantId, packId);
      const id = randomUUID();
      await this.packs.insertEvaluation(tx, ctx.tenantId, {
        id,
        packId,
        name: dto.name,
        description: dto.description,
        source: { ...dto.source },
        target: { ...dto.target },
        input: dto.input,
        hops: dto.hops.map(toHop),
        enabled: dto.enabled ?? true,
      });
      const created = (await this.packs.findEvaluation(tx, ctx.tenantId, packId, id))!;
      await recordAdminChange(this.outbox, tx, ctx, 'CREATED', {
        target: evaluationTarget(created),
        after: created,
      });
      return created;
    });
  }

  async list(
    ctx: RequestContext,
    packId: string,
    query: PageQueryDto,
  ): Promise<Page<EvaluationResponse>> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.packService.mustFind(tx, ctx.tenantId, packId);
      const items = await this.packs.listEvaluations(
        tx,
        ctx.tenantId,
        [packId],
        query.pageSize,
        pageOffset(query),
      );
      return pageOf(items, await this.packs.countEvaluations(tx, ctx.tenantId, packId), query);
    });
  }

  async get(
    ctx: RequestContext,
    packId: string,
    evaluationId: string,
  ): Promise<EvaluationResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) =>
      this.mustFind(
        await this.packs.findEvaluation(tx, ctx.tenantId, packId, evaluationId),
        evaluationId,
      ),
    );
  }

  async update(
    ctx: RequestContext,
    packId: string,
    evaluationId: string,
    dto: UpdateEvaluationDto,
  ): Promise<EvaluationResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = this.mustFind(
        await this.packs.findEvaluation(tx, ctx.tenantId, packId, evaluationId),
        evaluationId,
      );
      await this.packs.updateEvaluation(tx, ctx.tenantId, {
        id: evaluationId,
        packId,
        name: dto.name ?? current.name,
        description: dto.description ?? current.description,
        source: dto.source ? { ...dto.source } : current.source,
        target: dto.target ? { ...dto.target } : current.target,
        input: dto.input ?? current.input,
        hops: dto.hops ? dto.hops.map(toHop) : current.hops,
        enabled: dto.enabled ?? current.enabled,
      });
      const updated = (await this.packs.findEvaluation(tx, ctx.tenantId, packId, evaluationId))!;
      await recordAdminChange(this.outbox, tx, ctx, 'UPDATED', {
        target: evaluationTarget(updated),
        before: current,
        after: updated,
      });
      return updated;
    });
  }

  async remove(ctx: RequestContext, packId: string, evaluationId: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = this.mustFind(
        await this.packs.findEvaluation(tx, ctx.tenantId, packId, evaluationId),
        evaluationId,
      );
      await this.packs.deleteEvaluation(tx, ctx.tenantId, evaluationId);
      await recordAdminChange(this.outbox, tx, ctx, 'DELETED', {
        target: evaluationTarget(current),
        before: current,
      });
    });
  }

  private mustFind(
    evaluation: EvaluationResponse | undefined,
    evaluationId: string,
  ): EvaluationResponse {
    if (!evaluation) {
      throw new EvaluationPacksException(
        EvaluationPacksErrorCode.EvaluationNotFound,
        `evaluation ${evaluationId} not found`,
      );
    }
    return evaluation;
  }
}

/** An evaluation as the target of its ADMIN_CHANGE (D42). */
function evaluationTarget(evaluation: EvaluationResponse): ChangeTarget {
  return { kind: 'EVALUATION', id: evaluation.id, name: evaluation.name };
}

function toHop(dto: HopDto): Hop {
  return {
    hopId: dto.hopId ?? randomUUID(),
    source: { ...dto.source },
    sink: { ...dto.sink },
    ...(dto.expectedAction ? { expectedAction: dto.expectedAction } : {}),
    expectedPolicyIds: dto.expectedPolicyIds ?? [],
    expectedMaskedFields: dto.expectedMaskedFields ?? [],
    expectedPatterns: (dto.expectedPatterns ?? []).map((p) => ({
      ...p,
      patternId: p.patternId ?? randomUUID(),
    })),
    ...(dto.notes ? { notes: dto.notes } : {}),
    assertions: (dto.assertions ?? []).map((a, i) => ({
      ...a,
      checkId: a.checkId ?? `check-${i + 1}`,
    })),
    ...(dto.protocol ? { protocol: dto.protocol } : {}),
    ...(dto.direction ? { direction: dto.direction } : {}),
    ...(dto.method ? { method: dto.method } : {}),
    ...(dto.toolName ? { toolName: dto.toolName } : {}),
  };
}
