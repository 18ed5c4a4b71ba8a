import { Inject, Injectable } from '@nestjs/common';
import { RequestContext, allows } from '@agp/auth';
import { Database, Tx } from '@agp/database';
import { Page, pageOf, pageOffset } from '@agp/http';

import { RELAY_DATABASE } from '../database/tokens';
import { IdentityProjections } from '../projections/identity-projections.service';
import { ListWebhookDeliveriesQueryDto } from './dto/list-webhook-deliveries-query.dto';
import { WebhookDelivery } from './webhook-delivery.types';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookSettings, WebhookSettingsRepository } from './webhook-settings.repository';
import { WebhooksErrorCode, WebhooksException } from './webhooks.exception';

/** D19, D21: an agent token only for its own agent (it is the receiver that missed them). */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly settings: WebhookSettingsRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly identities: IdentityProjections,
  ) {}

  async list(
    ctx: RequestContext,
    agentId: string,
    query: ListWebhookDeliveriesQueryDto,
  ): Promise<Page<WebhookDelivery>> {
    this.checkMay(ctx, agentId, 'READ');
    await this.identities.ensure(ctx.tenantId, { agents: [agentId] });
    const { items, total } = await this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.mustFindAgent(tx, ctx.tenantId, agentId);
      return this.deliveries.list(
        tx,
        ctx.tenantId,
        agentId,
        query,
        query.pageSize,
        pageOffset(query),
      );
    });
    return pageOf(items, total, query);
  }

  async get(ctx: RequestContext, agentId: string, deliveryId: string): Promise<WebhookDelivery> {
    this.checkMay(ctx, agentId, 'READ');
    return this.database.inTenant(ctx.tenantId, async (tx) =>
      mustFind(await this.deliveries.find(tx, ctx.tenantId, agentId, deliveryId), deliveryId),
    );
  }

  /** A fresh round of attempts, due now, with the same delivery id (receivers deduplicate on it). */
  async redeliver(
    ctx: RequestContext,
    agentId: string,
    deliveryId: string,
  ): Promise<WebhookDelivery> {
    this.checkMay(ctx, agentId, 'WRITE');
    const delivery = await this.database.inTenant(ctx.tenantId, async (tx) => {
      const agent = await this.mustFindAgent(tx, ctx.tenantId, agentId);
      mustFind(await this.deliveries.find(tx, ctx.tenantId, agentId, deliveryId), deliveryId);
      if (!agent.url) {
        throw new WebhooksException(
          WebhooksErrorCode.NoWebhook,
          `agent ${agentId} has no webhook: set its webhookUrl before redelivering`,
        );
      }
      await this.deliveries.redeliver(tx, ctx.tenantId, agentId, deliveryId);
      return (await this.deliveries.find(tx, ctx.tenantId, agentId, deliveryId))!;
    });
    this.dispatcher.kick();
    return delivery;
  }

  private async mustFindAgent(tx: Tx, tenantId: string, agentId: string): Promise<WebhookSettings> {
    const agent = await this.settings.find(tx, tenantId, agentId);
    if (!agent || agent.status === 'DELETED') {
      throw new WebhooksException(WebhooksErrorCode.AgentNotFound, `agent ${agentId} not found`);
    }
    return agent;
  }

  private checkMay(ctx: RequestContext, agentId: string, permission: 'READ' | 'WRITE'): void {
    const { principal } = ctx;
    if (principal.kind === 'AGENT') {
      if (principal.subject === agentId) {
        return;
      }
      throw new WebhooksException(
        WebhooksErrorCode.Forbidden,
        "an agent may see only its own agent's webhook deliveries",
      );
    }
    if (!allows(principal.permissions, 'REGISTRY', permission)) {
      throw new WebhooksException(
        WebhooksErrorCode.Forbidden,
        `this operation needs the role REGISTRY:${permission}`,
      );
    }
  }
}

function mustFind(delivery: WebhookDelivery | undefined, id: string): WebhookDelivery {
  if (!delivery) {
    throw new WebhooksException(WebhooksErrorCode.DeliveryNotFound, `delivery ${id} not found`);
  }
  return delivery;
}
