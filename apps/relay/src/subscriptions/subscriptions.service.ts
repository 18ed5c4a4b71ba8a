import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { changedFields } from '@agp/admin-changes';
import { RequestContext, actorOf, allows, eventContext } from '@agp/auth';
import { EndpointType } from '@agp/contracts';
import { Database, isUniqueViolation, Tx } from '@agp/database';
import { Page, PageQueryDto, pageOf, pageOffset } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { IdentityProjections, IdentityRefs } from '../projections/identity-projections.service';
import { CreateSubscriptionDto } from './dto/create-subscription.dto';
import { ListSubscriptionsQueryDto } from './dto/list-subscriptions-query.dto';
import { UpdateSubscriptionDto } from './dto/update-subscription.dto';
import { SubscriptionsErrorCode, SubscriptionsException } from './subscriptions.exception';
import { SubscriptionFilter, SubscriptionsRepository } from './subscriptions.repository';
import { AgentMcpServer, ENDS_OF, Subscription, hasToolGrant } from './subscription.types';

const TABLE_OF: Readonly<Record<EndpointType, string>> = {
  AGENT: 'agents',
  USER: 'users',
  CHANNEL: 'channels',
  MCP_SERVER: 'mcp_servers',
  LLM_GATEWAY: 'llm_gateways',
};

type Change = 'CREATED' | 'UPDATED' | 'DELETED';

/** D32, T2: events published in the change's transaction; traffic reads the table itself. */
@Injectable()
export class SubscriptionsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly identities: IdentityProjections,
  ) {}

  async create(ctx: RequestContext, dto: CreateSubscriptionDto): Promise<Subscription> {
    if (dto.tools !== undefined && dto.tools !== null && !hasToolGrant(dto.kind)) {
      throw new SubscriptionsException(
        SubscriptionsErrorCode.InvalidReference,
        'invalid request: tools',
        [
          {
            field: 'tools',
            message:
              'a tool grant belongs to AGENT_TO_MCP_SERVER and USER_TO_MCP_SERVER subscriptions only',
          },
        ],
      );
    }
    await this.identities.ensure(ctx.tenantId, identitiesOf(dto));
    try {
      return await this.database.inTenant(ctx.tenantId, async (tx) => {
        await this.checkEnds(tx, ctx.tenantId, dto);
        const created = await this.subscriptions.insert(tx, ctx.tenantId, {
          id: randomUUID(),
          kind: dto.kind,
          sourceId: dto.sourceId,
          targetId: dto.targetId,
          tools: dto.tools ?? null,
        });
        await this.record(tx, ctx, created, 'CREATED', undefined);
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new SubscriptionsException(
          SubscriptionsErrorCode.Duplicate,
          `a ${dto.kind} subscription from ${dto.sourceId} to ${dto.targetId} already exists`,
        );
      }
      throw error;
    }
  }

  async list(ctx: RequestContext, query: ListSubscriptionsQueryDto): Promise<Page<Subscription>> {
    return this.page(
      ctx,
      { kind: query.kind, sourceId: query.sourceId, targetId: query.targetId },
      query,
    );
  }

  async get(ctx: RequestContext, id: string): Promise<Subscription> {
    return this.database.inTenant(ctx.tenantId, async (tx) =>
      this.mustFind(await this.subscriptions.find(tx, ctx.tenantId, id), id),
    );
  }

  async update(ctx: RequestContext, id: string, dto: UpdateSubscriptionDto): Promise<Subscription> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const before = this.mustFind(await this.subscriptions.find(tx, ctx.tenantId, id), id);
      if (dto.tools === undefined) {
        return before;
      }
      if (!hasToolGrant(before.kind) && dto.tools !== null) {
        throw new SubscriptionsException(
          SubscriptionsErrorCode.InvalidReference,
          'invalid request: tools',
          [{ field: 'tools', message: `a ${before.kind} subscription has no tool grant` }],
        );
      }
      const after = await this.subscriptions.setTools(tx, ctx.tenantId, id, dto.tools);
      await this.record(tx, ctx, after, 'UPDATED', before);
      return after;
    });
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const subscription = this.mustFind(await this.subscriptions.find(tx, ctx.tenantId, id), id);
      await this.subscriptions.delete(tx, ctx.tenantId, id);
      await this.record(tx, ctx, subscription, 'DELETED', subscription);
    });
  }

  /** D21: an agent's own subscriptions (as source); another agent's only for those allowed. */
  async ofAgent(
    ctx: RequestContext,
    agentId: string,
    query: PageQueryDto,
    kind?: Subscription['kind'],
  ): Promise<Page<Subscription>> {
    this.checkMayReadAgent(ctx, agentId);
    await this.identities.ensure(ctx.tenantId, { agents: [agentId] });
    const { items, total } = await this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.mustHaveAgent(tx, ctx.tenantId, agentId);
      return this.subscriptions.list(
        tx,
        ctx.tenantId,
        { sourceId: agentId, ...(kind ? { kind } : {}) },
        query.pageSize,
        pageOffset(query),
      );
    });
    return pageOf(items, total, query);
  }

  /** D21: the MCP servers an agent may call, each with its grant and relay path. */
  async mcpServersOf(
    ctx: RequestContext,
    agentId: string,
    query: PageQueryDto,
  ): Promise<Page<AgentMcpServer>> {
    this.checkMayReadAgent(ctx, agentId);
    await this.identities.ensure(ctx.tenantId, { agents: [agentId] });
    const { items, total } = await this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.mustHaveAgent(tx, ctx.tenantId, agentId);
      return this.subscriptions.mcpServersOf(
        tx,
        ctx.tenantId,
        agentId,
        query.pageSize,
        pageOffset(query),
      );
    });
    return pageOf(items, total, query);
  }

  /** D12: an agent of another tenant, like an unknown one, is a 404, not an empty page. */
  private async mustHaveAgent(tx: Tx, tenantId: string, agentId: string): Promise<void> {
    if (!(await this.subscriptions.exists(tx, tenantId, TABLE_OF.AGENT, agentId))) {
      throw new SubscriptionsException(
        SubscriptionsErrorCode.AgentNotFound,
        `agent ${agentId} not found`,
      );
    }
  }

  async removeNaming(tx: Tx, ctx: RequestContext, endpointId: string): Promise<void> {
    for (const subscription of await this.subscriptions.deleteNaming(
      tx,
      ctx.tenantId,
      endpointId,
    )) {
      await this.record(tx, ctx, subscription, 'DELETED', subscription);
    }
  }

  /** The specification's 403: an agent token reads its own subscriptions only. */
  private checkMayReadAgent(ctx: RequestContext, agentId: string): void {
    const { principal } = ctx;
    const isSelf = principal.kind === 'AGENT' && principal.subject === agentId;
    if (
      isSelf ||
      (principal.kind !== 'AGENT' && allows(principal.permissions, 'REGISTRY', 'READ'))
    ) {
      return;
    }
    throw new SubscriptionsException(
      SubscriptionsErrorCode.ForeignAgent,
      principal.kind === 'AGENT'
        ? 'an agent may read only its own subscriptions'
        : 'this operation needs the role REGISTRY:READ',
    );
  }

  private async page(
    ctx: RequestContext,
    filter: SubscriptionFilter,
    query: PageQueryDto,
  ): Promise<Page<Subscription>> {
    const { items, total } = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.subscriptions.list(tx, ctx.tenantId, filter, query.pageSize, pageOffset(query)),
    );
    return pageOf(items, total, query);
  }

  /** D32: both ends must be registry entries of the caller's tenant, of the kind's types. */
  private async checkEnds(tx: Tx, tenantId: string, dto: CreateSubscriptionDto): Promise<void> {
    const ends = ENDS_OF[dto.kind];
    const errors = [];
    for (const [field, type, id] of [
      ['sourceId', ends.source, dto.sourceId],
      ['targetId', ends.target, dto.targetId],
    ] as const) {
      if (!(await this.subscriptions.exists(tx, tenantId, TABLE_OF[type], id))) {
        errors.push({ field, message: `no ${type} ${id} in this tenant` });
      }
    }
    if (errors.length > 0) {
      throw new SubscriptionsException(
        SubscriptionsErrorCode.InvalidReference,
        `invalid request: ${errors.map((e) => e.field).join(', ')}`,
        errors,
      );
    }
  }

  private async record(
    tx: Tx,
    ctx: RequestContext,
    subscription: Subscription,
    change: Change,
    before: Subscription | undefined,
  ): Promise<void> {
    const context = eventContext(ctx);
    const actor = actorOf(ctx);
    const tools = change === 'DELETED' ? [] : subscription.tools;
    const summary = `${subscription.kind} subscription ${subscription.sourceId} → ${subscription.targetId} ${change.toLowerCase()}`;
    await this.outbox.add(tx, 'SUBSCRIPTION_CHANGED', context, {
      actor,
      summary,
      change,
      subscriptionId: subscription.id,
      kind: subscription.kind,
      sourceId: subscription.sourceId,
      targetId: subscription.targetId,
      ...(hasToolGrant(subscription.kind) ? { tools } : {}),
    });
    const isGrantChange =
      subscription.kind === 'AGENT_TO_MCP_SERVER' &&
      (change !== 'UPDATED' ||
        JSON.stringify(before?.tools) !== JSON.stringify(subscription.tools));
    if (isGrantChange) {
      await this.outbox.add(tx, 'MCP_GRANTS_CHANGED', context, {
        actor,
        summary: `tool grant of agent ${subscription.sourceId} on MCP server ${subscription.targetId} ${change.toLowerCase()}`,
        subscriptionId: subscription.id,
        agentId: subscription.sourceId,
        mcpServerId: subscription.targetId,
        tools,
        ...(before ? { previousTools: before.tools } : {}),
      });
    }
    await this.recordAgentLifecycle(tx, ctx, subscription, change, summary, before);
  }

  /** D32: a subscription change is part of the agent's lifecycle in the audit trail. */
  private async recordAgentLifecycle(
    tx: Tx,
    ctx: RequestContext,
    subscription: Subscription,
    change: Change,
    summary: string,
    before: Subscription | undefined,
  ): Promise<void> {
    const agentId =
      ENDS_OF[subscription.kind].source === 'AGENT' ? subscription.sourceId : subscription.targetId;
    const agent = await this.subscriptions.agent(tx, ctx.tenantId, agentId);
    if (!agent) {
      return;
    }
    await this.outbox.add(tx, 'AGENT_LIFECYCLE', eventContext(ctx), {
      actor: actorOf(ctx),
      sink: { type: 'AGENT', id: agentId, label: agent.name },
      summary,
      details: {
        origin: 'relay',
        subscription: { id: subscription.id, kind: subscription.kind, change },
        ...(subscription.kind === 'AGENT_TO_MCP_SERVER'
          ? { mcpServerId: subscription.targetId }
          : {}),
        // D42: the subscription's changed fields; the agent is the event's sink.
        ...changedFields({
          target: { kind: 'SUBSCRIPTION', id: subscription.id, name: subscription.kind },
          before: change === 'CREATED' ? undefined : before,
          after: change === 'DELETED' ? undefined : subscription,
        }),
      },
      agentId,
      name: agent.name,
      change: 'UPDATED',
      status: agent.status,
      permissions: [],
    });
  }

  private mustFind(subscription: Subscription | undefined, id: string): Subscription {
    if (!subscription) {
      throw new SubscriptionsException(
        SubscriptionsErrorCode.NotFound,
        `subscription ${id} not found`,
      );
    }
    return subscription;
  }
}

/** The ends of a new subscription that tenant-auth owns (D32's kinds), to check with it (issue 30). */
function identitiesOf(dto: CreateSubscriptionDto): IdentityRefs {
  const ends = ENDS_OF[dto.kind];
  const ids = (type: EndpointType): string[] =>
    [
      ends.source === type ? dto.sourceId : undefined,
      ends.target === type ? dto.targetId : undefined,
    ].filter((id): id is string => id !== undefined);
  return { agents: ids('AGENT'), users: ids('USER') };
}
