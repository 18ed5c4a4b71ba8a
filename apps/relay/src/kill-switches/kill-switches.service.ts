import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { changedFields } from '@agp/admin-changes';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { Database, isUniqueViolation, Tx } from '@agp/database';
import { Page, pageOf, pageOffset } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { IdentityProjections } from '../projections/identity-projections.service';
import { EngageKillSwitchDto } from './dto/engage-kill-switch.dto';
import { ListKillSwitchesQueryDto } from './dto/list-kill-switches-query.dto';
import { KillSwitch } from './kill-switch.types';
import { KillSwitchesErrorCode, KillSwitchesException } from './kill-switches.exception';
import { KillSwitchesRepository } from './kill-switches.repository';

interface Target {
  name: string;
  /** Agents only: the identity's status, which AGENT_LIFECYCLE carries. */
  status?: string;
}

/** D35, T2, T50: traffic paths hear of it via the lifecycle event; calls nothing of theirs. */
@Injectable()
export class KillSwitchesService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly switches: KillSwitchesRepository,
    private readonly identities: IdentityProjections,
  ) {}

  async engage(ctx: RequestContext, dto: EngageKillSwitchDto): Promise<KillSwitch> {
    await this.identities.ensure(ctx.tenantId, {
      agents: dto.scope === 'AGENT' ? [dto.targetId] : [],
    });
    try {
      const engaged = await this.database.inTenant(ctx.tenantId, async (tx) => {
        const target = await this.target(tx, ctx, dto);
        const created = await this.switches.insert(tx, ctx.tenantId, {
          id: randomUUID(),
          scope: dto.scope,
          targetId: dto.targetId,
          reason: dto.reason,
          engagedBy: ctx.principal.subject,
        });
        await this.record(tx, ctx, created, target, 'KILL_SWITCH_ENGAGED', undefined);
        return created;
      });
      return engaged;
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new KillSwitchesException(
          KillSwitchesErrorCode.AlreadyEngaged,
          `a kill switch on ${dto.scope} ${dto.targetId} is already engaged`,
        );
      }
      throw error;
    }
  }

  async list(ctx: RequestContext, query: ListKillSwitchesQueryDto): Promise<Page<KillSwitch>> {
    const { items, total } = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.switches.list(tx, ctx.tenantId, query, query.pageSize, pageOffset(query)),
    );
    return pageOf(items, total, query);
  }

  async get(ctx: RequestContext, id: string): Promise<KillSwitch> {
    return this.database.inTenant(ctx.tenantId, async (tx) => this.mustFind(tx, ctx, id));
  }

  /** DELETE releases (the record stays, for the trail); a released switch is a 409. */
  async release(ctx: RequestContext, id: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = await this.mustFind(tx, ctx, id);
      const released = await this.switches.release(tx, ctx.tenantId, id, ctx.principal.subject);
      if (!released) {
        throw new KillSwitchesException(
          KillSwitchesErrorCode.AlreadyReleased,
          `kill switch ${id} is ${current.status}; only an ENGAGED switch can be released`,
        );
      }
      // A target removed since it was engaged is recorded by its id.
      const target = await this.target(tx, ctx, released, true).catch(() => ({
        name: released.targetId,
      }));
      await this.record(tx, ctx, released, target, 'KILL_SWITCH_RELEASED', current);
    });
  }

  private async mustFind(tx: Tx, ctx: RequestContext, id: string): Promise<KillSwitch> {
    const found = await this.switches.find(tx, ctx.tenantId, id);
    if (!found) {
      throw new KillSwitchesException(
        KillSwitchesErrorCode.NotFound,
        `kill switch ${id} not found`,
      );
    }
    return found;
  }

  /** The target must be the caller's tenant (TENANT) or an entry of its registry (400 otherwise). */
  private async target(
    tx: Tx,
    ctx: RequestContext,
    target: Pick<KillSwitch, 'scope' | 'targetId'>,
    includeDeleted = false,
  ): Promise<Target> {
    const found =
      target.scope === 'TENANT'
        ? target.targetId === ctx.tenantId
          ? { name: 'tenant' }
          : undefined
        : await this.switches.targetName(
            tx,
            ctx.tenantId,
            target.scope,
            target.targetId,
            includeDeleted,
          );
    if (!found) {
      const message =
        target.scope === 'TENANT'
          ? 'a TENANT kill switch names the caller’s own tenant'
          : `no ${target.scope} ${target.targetId} in this tenant`;
      throw new KillSwitchesException(
        KillSwitchesErrorCode.InvalidTarget,
        'invalid request: targetId',
        [{ field: 'targetId', message }],
      );
    }
    return found;
  }

  /** D35: the lifecycle event of the target's kind (AGENT, MCP, LLM; governance otherwise). */
  private async record(
    tx: Tx,
    ctx: RequestContext,
    killSwitch: KillSwitch,
    target: Target,
    change: 'KILL_SWITCH_ENGAGED' | 'KILL_SWITCH_RELEASED',
    before: KillSwitch | undefined,
  ): Promise<void> {
    const targetName = target.name;
    const verb = change === 'KILL_SWITCH_ENGAGED' ? 'engaged' : 'released';
    const common = {
      actor: actorOf(ctx),
      sink: { type: killSwitch.scope, id: killSwitch.targetId, label: targetName },
      summary: `kill switch on ${killSwitch.scope} ${targetName} ${verb}: ${killSwitch.reason}`,
      details: {
        change,
        killSwitchId: killSwitch.id,
        scope: killSwitch.scope,
        targetId: killSwitch.targetId,
        reason: killSwitch.reason,
        ...(killSwitch.scope === 'MCP_SERVER' ? { mcpServerId: killSwitch.targetId } : {}),
        ...(killSwitch.scope === 'LLM_GATEWAY' ? { llmGatewayId: killSwitch.targetId } : {}),
        ...(killSwitch.scope === 'CHANNEL' ? { channelId: killSwitch.targetId } : {}),
        // D42: the switch's changed fields (its status, who released it and when).
        ...changedFields({
          target: { kind: 'KILL_SWITCH', id: killSwitch.id, name: targetName },
          before,
          after: killSwitch,
        }),
      },
    };
    const context = eventContext(ctx);
    switch (killSwitch.scope) {
      case 'AGENT':
        await this.outbox.add(tx, 'AGENT_LIFECYCLE', context, {
          ...common,
          details: { ...common.details, origin: 'relay' },
          agentId: killSwitch.targetId,
          name: targetName,
          change: 'UPDATED',
          status: target.status ?? 'UNKNOWN',
          permissions: [],
        });
        return;
      case 'MCP_SERVER':
        await this.outbox.add(tx, 'MCP_LIFECYCLE', context, common);
        return;
      case 'LLM_GATEWAY':
        await this.outbox.add(tx, 'LLM_LIFECYCLE', context, common);
        return;
      case 'TENANT':
      case 'CHANNEL':
        await this.outbox.add(tx, 'GOVERNANCE_LIFECYCLE', context, common);
        return;
    }
  }
}
