import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { EventParty } from '@agp/contracts';
import { Database, Tx } from '@agp/database';
import { Page, PageQueryDto, pageOf, pageOffset } from '@agp/http';

import { RELAY_DATABASE } from '../database/tokens';
import { AfterCommit } from './after-commit';
import { CreateRunDto } from './dto/create-run.dto';
import { RunResponse } from './dto/pack-responses';
import { EvaluationPacksErrorCode, EvaluationPacksException } from './evaluation-packs.exception';
import { EvaluationPacksRepository } from './evaluation-packs.repository';
import { EvaluationPacksService } from './evaluation-packs.service';
import { EvaluationRunsRepository } from './evaluation-runs.repository';
import { RunExecutor } from './run-executor';

/** Runs of a pack (D15, D27): started by a user, by the API, or by a policy change. */
@Injectable()
export class EvaluationRunsService {
  private readonly kickOnCommit: AfterCommit;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly runs: EvaluationRunsRepository,
    private readonly packs: EvaluationPacksRepository,
    private readonly packService: EvaluationPacksService,
    private readonly executor: RunExecutor,
  ) {
    this.kickOnCommit = new AfterCommit(database, () => this.executor.kick());
  }

  /** 202 with the PENDING run; it runs in the background. A user starts USER runs, anything else API (R14). */
  async start(ctx: RequestContext, packId: string, dto: CreateRunDto): Promise<RunResponse> {
    const runId = randomUUID();
    const run = await this.database.inTenant(ctx.tenantId, async (tx) => {
      const pack = await this.packService.mustFind(tx, ctx.tenantId, packId);
      await this.runs.insert(tx, ctx.tenantId, {
        id: runId,
        packId,
        packName: pack.name,
        triggerSource: ctx.principal.kind === 'USER' ? 'USER' : 'API',
        triggeredBy: { id: ctx.principal.subject, name: ctx.principal.label },
        executionMode: dto.executionMode ?? 'SIMULATED',
      });
      return (await this.runs.find(tx, ctx.tenantId, packId, runId))!;
    });
    this.executor.kick();
    const { results: _results, ...summary } = run;
    return summary;
  }

  /** Issue 6 §5: every enabled pack touching the group gets a POLICY_CHANGE run, in the event's transaction. */
  async startForPolicyChange(
    tx: Tx,
    tenantId: string,
    groupId: string,
    actor: EventParty | undefined,
  ): Promise<number> {
    const packs = await this.packs.enabledPacksTouchingGroup(tx, tenantId, groupId);
    for (const pack of packs) {
      await this.runs.insert(tx, tenantId, {
        id: randomUUID(),
        packId: pack.id,
        packName: pack.name,
        triggerSource: 'POLICY_CHANGE',
        ...(actor?.id ? { triggeredBy: { id: actor.id, name: actor.label ?? actor.type } } : {}),
        executionMode: 'SIMULATED',
      });
    }
    if (packs.length > 0) {
      // Started now, not at the next poll (F54): the event's transaction commits after this returns.
      this.kickOnCommit.after(tx);
    }
    return packs.length;
  }

  async list(ctx: RequestContext, packId: string, query: PageQueryDto): Promise<Page<RunResponse>> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.packService.mustFind(tx, ctx.tenantId, packId);
      const { items, total } = await this.runs.list(
        tx,
        ctx.tenantId,
        packId,
        query.pageSize,
        pageOffset(query),
      );
      return pageOf(items, total, query);
    });
  }

  async get(ctx: RequestContext, packId: string, runId: string): Promise<RunResponse> {
    return this.database.inTenant(ctx.tenantId, (tx) => this.mustFind(tx, ctx, packId, runId));
  }

  /** G21: a RUNNING run stops before its next evaluation (a LIVE one's traffic is cut short). */
  async cancel(ctx: RequestContext, packId: string, runId: string): Promise<RunResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const run = await this.mustFind(tx, ctx, packId, runId);
      if (!(await this.runs.cancel(tx, ctx.tenantId, packId, runId))) {
        throw new EvaluationPacksException(
          EvaluationPacksErrorCode.RunFinished,
          `run ${runId} is ${run.status}: only a PENDING or RUNNING run can be canceled`,
        );
      }
      const { results: _results, ...summary } = (await this.runs.find(
        tx,
        ctx.tenantId,
        packId,
        runId,
      ))!;
      return summary;
    });
  }

  private async mustFind(
    tx: Tx,
    ctx: RequestContext,
    packId: string,
    runId: string,
  ): Promise<RunResponse> {
    const run = await this.runs.find(tx, ctx.tenantId, packId, runId);
    if (!run) {
      throw new EvaluationPacksException(
        EvaluationPacksErrorCode.RunNotFound,
        `run ${runId} of evaluation pack ${packId} not found`,
      );
    }
    return run;
  }
}
