import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database, Tx } from '@agp/database';

import { RELAY_DATABASE } from '../database/tokens';
import { PoliciesErrorCode, PoliciesException } from '../policies/policies.exception';
import { PolicyBindingsRepository } from '../policies/policy-bindings.repository';
import { PolicyGroupsRepository } from '../policies/policy-groups.repository';
import { DecisionDiff } from '../shadow/decision-diffs';
import { DecisionDiffsRepository } from '../shadow/decision-diffs.repository';
import { DecisionDiffQueryDto } from '../shadow/dto/decision-diff-query.dto';
import { readDecisionDiff } from '../shadow/read-decision-diff';
import { CreateReplayDto } from './dto/create-replay.dto';
import { ReplayExecutor } from './replay-executor';
import { Replay, ReplayPlacement } from './replay.types';
import { ReplaysRepository } from './replays.repository';

/** A replay: its request and progress, and (as it goes) its result like the shadow report's. */
export interface ReplayResponse extends Omit<Replay, 'cursorId' | 'versionId'> {
  result: DecisionDiff;
}

/** The longest window one replay reads (governance.md G10). */
const MAX_WINDOW_MS = 31 * 86_400_000;

/** `…/policy-groups/{groupId}/versions/{version}/replays` (D49, D55, governance.md G10). */
@Injectable()
export class ReplaysService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly replays: ReplaysRepository,
    private readonly groups: PolicyGroupsRepository,
    private readonly bindings: PolicyBindingsRepository,
    private readonly diffs: DecisionDiffsRepository,
    private readonly executor: ReplayExecutor,
  ) {}

  async create(
    ctx: RequestContext,
    groupId: string,
    version: string,
    dto: CreateReplayDto,
  ): Promise<ReplayResponse> {
    const from = new Date(dto.from);
    const to = new Date(dto.to);
    if (from >= to || to.getTime() - from.getTime() > MAX_WINDOW_MS) {
      throw invalid('to', 'to must be after from, and the window at most 31 days');
    }
    const id = randomUUID();
    const created = await this.database.inTenant(ctx.tenantId, async (tx) => {
      const state = await this.groups.versionState(tx, ctx.tenantId, groupId, version);
      if (!state) {
        throw new PoliciesException(
          PoliciesErrorCode.VersionNotFound,
          `version ${version} of policy group ${groupId} not found`,
        );
      }
      await this.replays.insert(tx, ctx.tenantId, {
        id,
        groupId,
        versionId: state.id,
        version,
        ...(dto.bindingId ? { bindingId: dto.bindingId } : {}),
        from,
        to,
        filters: { ...dto.filters },
        placement: await this.placementOf(tx, ctx.tenantId, groupId, dto.bindingId),
        requestedBy: {
          id: ctx.principal.subject,
          ...(ctx.principal.label ? { name: ctx.principal.label } : {}),
        },
      });
      return this.read(tx, ctx.tenantId, groupId, version, id, new DecisionDiffQueryDto());
    });
    this.executor.kick();
    return created;
  }

  get(
    ctx: RequestContext,
    groupId: string,
    version: string,
    replayId: string,
    query: DecisionDiffQueryDto,
  ): Promise<ReplayResponse> {
    return this.database.inTenant(ctx.tenantId, (tx) =>
      this.read(tx, ctx.tenantId, groupId, version, replayId, query),
    );
  }

  /** PENDING or RUNNING → CANCELLED (the worker stops at its next page); a finished one: 409. */
  cancel(
    ctx: RequestContext,
    groupId: string,
    version: string,
    replayId: string,
  ): Promise<ReplayResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const replay = await this.mustFind(tx, ctx.tenantId, groupId, version, replayId);
      if (!(await this.replays.cancel(tx, ctx.tenantId, replayId))) {
        throw new PoliciesException(
          PoliciesErrorCode.ReplayFinished,
          `replay ${replayId} is already ${replay.status}`,
        );
      }
      return this.read(tx, ctx.tenantId, groupId, version, replayId, new DecisionDiffQueryDto());
    });
  }

  /** D55: where `bindingId` is, else the whole tenant; with what the version stands in for (G7). */
  private async placementOf(
    tx: Tx,
    tenantId: string,
    groupId: string,
    bindingId: string | undefined,
  ): Promise<ReplayPlacement> {
    const binding = bindingId ? await this.bindings.find(tx, tenantId, bindingId) : undefined;
    if (bindingId && !binding) {
      throw invalid('bindingId', 'bindingId does not name a policy binding of this tenant');
    }
    const place = binding
      ? {
          bindingLevel: binding.bindingLevel,
          ...(binding.agent ? { agentId: binding.agent.id } : {}),
          ...(binding.sourceAgent ? { sourceAgentId: binding.sourceAgent.id } : {}),
          ...(binding.sinkAgent ? { sinkAgentId: binding.sinkAgent.id } : {}),
          ...(binding.channel ? { channelId: binding.channel.id } : {}),
        }
      : { bindingLevel: 'TENANT' as const };
    return { ...place, replaces: await this.bindings.enforcingAt(tx, tenantId, groupId, place) };
  }

  private async read(
    tx: Tx,
    tenantId: string,
    groupId: string,
    version: string,
    replayId: string,
    query: DecisionDiffQueryDto,
  ): Promise<ReplayResponse> {
    const replay = await this.mustFind(tx, tenantId, groupId, version, replayId);
    const window = {
      from: new Date(query.from ?? replay.from),
      to: new Date(query.to ?? replay.to),
    };
    const source = { kind: 'REPLAY', replayId } as const;
    const result = await readDecisionDiff(this.diffs, tx, tenantId, source, window, query);
    const { cursorId: _cursor, versionId: _version, ...shown } = replay;
    return { ...shown, result };
  }

  private async mustFind(
    tx: Tx,
    tenantId: string,
    groupId: string,
    version: string,
    replayId: string,
  ): Promise<Replay> {
    const replay = await this.replays.find(tx, tenantId, groupId, version, replayId);
    if (!replay) {
      throw new PoliciesException(PoliciesErrorCode.ReplayNotFound, `replay ${replayId} not found`);
    }
    return replay;
  }
}

function invalid(field: string, message: string): PoliciesException {
  return new PoliciesException(PoliciesErrorCode.InvalidRequest, `invalid replay: ${field}`, [
    { field, message },
  ]);
}
