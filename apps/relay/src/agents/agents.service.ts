import { Inject, Injectable } from '@nestjs/common';
import { changedFields } from '@agp/admin-changes';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { Database } from '@agp/database';
import { Page, pageOf, pageOffset } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { EgressOptions, checkEgressUrl } from '../common/egress-policy';
import { registryViewerOf } from '../discovery/visibility';
import { EGRESS_OPTIONS } from '../config/relay-config.module';
import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { CredentialCipher } from '../mcp-servers/credential-cipher';
import { IdentityProjections } from '../projections/identity-projections.service';
import { RegistryErrorCode, RegistryException } from '../registry/registry.exception';
import { UsersRepository } from '../users/users.repository';
import { WebhookSettingsService } from '../webhooks/webhook-settings.service';
import { Agent } from './agent.types';
import { AgentsRepository } from './agents.repository';
import { AgentResponse, toAgentResponse } from './dto/agent-response';
import { ListAgentsQueryDto } from './dto/list-agents-query.dto';
import { UpdateAgentDto } from './dto/update-agent.dto';

/** Marks the relay's own AGENT_LIFECYCLE events, so its listener does not take them for tenant-auth's (R11). */
export const RELAY_ORIGIN = 'relay';

/** Agents as the relay sees them: tenant-auth's identity plus registry metadata (issue 6 §1). */
@Injectable()
export class AgentsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly agents: AgentsRepository,
    private readonly users: UsersRepository,
    private readonly cipher: CredentialCipher,
    @Inject(EGRESS_OPTIONS) private readonly egress: EgressOptions,
    private readonly webhooks: WebhookSettingsService,
    private readonly identities: IdentityProjections,
  ) {}

  async list(ctx: RequestContext, query: ListAgentsQueryDto): Promise<Page<AgentResponse>> {
    const { items, total } = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.agents.list(
        tx,
        ctx.tenantId,
        { ...query, viewer: registryViewerOf(ctx) },
        query.pageSize,
        pageOffset(query),
      ),
    );
    return pageOf(
      items.map((agent) => toAgentResponse(agent)),
      total,
      query,
    );
  }

  async get(ctx: RequestContext, agentId: string): Promise<AgentResponse> {
    await this.identities.ensure(ctx.tenantId, { agents: [agentId] });
    return this.database.inTenant(ctx.tenantId, async (tx) =>
      toAgentResponse(
        this.mustFind(
          await this.agents.find(tx, ctx.tenantId, agentId, registryViewerOf(ctx)),
          agentId,
        ),
      ),
    );
  }

  /** D19: the answer carries `webhookSecret` once, when setting the URL made the secret. */
  async update(
    ctx: RequestContext,
    agentId: string,
    dto: UpdateAgentDto,
  ): Promise<AgentResponse & { webhookSecret?: string }> {
    this.webhooks.checkUrl(dto.webhookUrl);
    const refusal = dto.agentCardUrl ? checkEgressUrl(dto.agentCardUrl, this.egress) : null;
    if (refusal) {
      throw new RegistryException(
        RegistryErrorCode.InvalidReference,
        'invalid request: agentCardUrl',
        [{ field: 'agentCardUrl', message: `agentCardUrl is not allowed (D37): ${refusal}` }],
      );
    }
    // D37: the A2A credential is stored sealed and never answered.
    const metadata =
      typeof dto.a2aCredential === 'string'
        ? { ...dto, a2aCredential: this.cipher.encrypt(dto.a2aCredential) }
        : dto;
    await this.identities.ensure(ctx.tenantId, { agents: [agentId], users: [dto.ownerUserId] });
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const agent = this.mustFind(
        await this.agents.find(tx, ctx.tenantId, agentId, registryViewerOf(ctx)),
        agentId,
      );
      if (dto.ownerUserId && !(await this.users.find(tx, ctx.tenantId, dto.ownerUserId))) {
        throw new RegistryException(
          RegistryErrorCode.InvalidReference,
          'ownerUserId does not name a user of this tenant',
          [{ field: 'ownerUserId', message: 'ownerUserId must name a user of this tenant' }],
        );
      }
      await this.agents.updateMetadata(tx, ctx.tenantId, agentId, metadata);
      const webhookSecret =
        dto.webhookUrl === undefined
          ? undefined
          : await this.webhooks.setUrl(tx, ctx.tenantId, agentId, dto.webhookUrl);
      const before = toAgentResponse(agent);
      const updated = toAgentResponse((await this.agents.find(tx, ctx.tenantId, agentId))!);
      await this.outbox.add(tx, 'AGENT_LIFECYCLE', eventContext(ctx), {
        actor: actorOf(ctx),
        sink: { type: 'AGENT', id: agentId, label: agent.name },
        summary: `agent ${agent.name} registry metadata updated`,
        details: {
          origin: RELAY_ORIGIN,
          // D42: what changed, a new A2A credential too although it reads back masked (D37).
          ...changedFields({
            target: { kind: 'AGENT', id: agentId, name: agent.name },
            before,
            after: updated,
            changed: dto.a2aCredential === undefined ? [] : ['a2aCredential'],
          }),
        },
        agentId,
        name: agent.name,
        change: 'UPDATED',
        status: agent.status,
        permissions: [],
      });
      return webhookSecret ? { ...updated, webhookSecret } : updated;
    });
  }

  private mustFind(agent: Agent | undefined, agentId: string): Agent {
    if (!agent || agent.status === 'DELETED') {
      throw new RegistryException(RegistryErrorCode.NotFound, `agent ${agentId} not found`);
    }
    return agent;
  }
}
