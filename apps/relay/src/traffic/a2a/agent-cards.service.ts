import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { HttpProblem } from '@agp/http';
import { RequestContext, actorOf, allows } from '@agp/auth';
import { EventOutbox } from '@agp/messaging';

import { RELAY_ORIGIN } from '../../agents/agents.service';
import { PUBLIC_BASE_URL } from '../../config/relay-config.module';
import { RELAY_DATABASE, RELAY_OUTBOX } from '../../database/tokens';
import { TrafficDirectory } from '../pipeline/traffic-directory';
import { AgentCardJson, changedFields, endpointOf, invalidCard, proxiedCard } from './agent-card';
import { A2aUpstream, A2aUpstreamFailure } from './a2a-upstream';
import { AgentCardsRepository } from './agent-cards.repository';

/** D21: what a refresh of an agent's card found. */
export interface CardRefresh {
  status: 'unchanged' | 'updated';
  changedFields: string[];
}

/** D38, D21, T33: kept in the registry so replicas serve one card; a change drops routes (T2). */
@Injectable()
export class AgentCards {
  // Stateless: made here rather than provided, so the traffic module's wiring is untouched.
  private readonly agents = new AgentCardsRepository();

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    @Inject(PUBLIC_BASE_URL) private readonly baseUrl: string,
    private readonly upstream: A2aUpstream,
    private readonly directory: TrafficDirectory,
  ) {}

  /** D20, D43: the human path for a person's client. */
  relayUrlOf(agentId: string, path: 'a2a' | 'human' = 'a2a'): string {
    return `${this.baseUrl}/relay/${path}/${agentId}`;
  }

  /** The card as callers see it: every interface on the relay, the platform's scheme (D38). */
  served(agentId: string, card: AgentCardJson, path: 'a2a' | 'human' = 'a2a'): AgentCardJson {
    return proxiedCard(
      card,
      this.relayUrlOf(agentId, path),
      `${this.baseUrl}/tenant-auth/v1/oauth/token`,
    );
  }

  /** Throws A2aUpstreamFailure when there is no card to fetch: the caller is told why. */
  async cardOf(
    tenantId: string,
    correlationId: string,
    target: { id: string; name: string; card?: AgentCardJson },
  ): Promise<AgentCardJson> {
    if (target.card) {
      return target.card;
    }
    const refreshed = await this.fetchAndKeep(tenantId, correlationId, target.id, undefined);
    return refreshed.card;
  }

  /** D21: `POST /relay/v1/agents/{agentId}/agent-card/refresh`. */
  async refresh(ctx: RequestContext, agentId: string): Promise<CardRefresh> {
    checkMayRefresh(ctx, agentId);
    try {
      const { refresh } = await this.fetchAndKeep(ctx.tenantId, ctx.correlationId, agentId, ctx);
      return refresh;
    } catch (error) {
      if (error instanceof A2aUpstreamFailure) {
        throw new HttpProblem(502, 'agent-card-unavailable', error.message);
      }
      throw error;
    }
  }

  private async fetchAndKeep(
    tenantId: string,
    correlationId: string,
    agentId: string,
    ctx: RequestContext | undefined,
  ): Promise<{ card: AgentCardJson; refresh: CardRefresh }> {
    const agent = await this.database.inTenant(tenantId, (tx) =>
      this.agents.find(tx, tenantId, agentId),
    );
    if (!agent) {
      throw HttpProblem.notFound(`agent ${agentId} not found`);
    }
    const label = `agent "${agent.name}" (${agent.id})`;
    if (!agent.agentCardUrl) {
      if (ctx) {
        throw new HttpProblem(
          409,
          'no-agent-card-url',
          `${label} has no agentCardUrl: set it with PATCH /relay/v1/agents/${agentId}`,
        );
      }
      throw new A2aUpstreamFailure(502, `${label} has no agentCardUrl, so it cannot be called`);
    }
    const fetched = await this.upstream.fetchCard(agent.agentCardUrl, label);
    const invalid = invalidCard(fetched);
    if (invalid) {
      throw new A2aUpstreamFailure(502, `the agent card of ${label}: ${invalid}`);
    }
    const card = fetched as AgentCardJson;
    const changed = changedFields(agent.card, card);
    const endpoint = endpointOf(card)!;
    await this.database.inTenant(tenantId, async (tx) => {
      await this.agents.keepCard(tx, tenantId, agentId, card);
      if (changed.length > 0) {
        await this.outbox.add(
          tx,
          'AGENT_LIFECYCLE',
          { tenantId, correlationId },
          {
            ...(ctx ? { actor: actorOf(ctx) } : {}),
            sink: { type: 'AGENT', id: agentId, label: agent.name },
            summary: `agent ${agent.name} card ${agent.card ? 'updated' : 'fetched'}: ${changed.join(', ')}`,
            details: {
              origin: RELAY_ORIGIN,
              agentCard: { changedFields: changed, url: agent.agentCardUrl, a2aUrl: endpoint.url },
            },
            agentId,
            name: agent.name,
            change: 'UPDATED',
            status: agent.status,
            permissions: [],
          },
        );
      }
    });
    return {
      card,
      refresh: { status: changed.length > 0 ? 'updated' : 'unchanged', changedFields: changed },
    };
  }
}

/** The client library's agent refreshes its own card (D21); a user needs REGISTRY:WRITE. */
function checkMayRefresh(ctx: RequestContext, agentId: string): void {
  const { principal } = ctx;
  if (principal.kind === 'AGENT') {
    if (principal.subject !== agentId) {
      throw new HttpProblem(403, 'forbidden', "an agent may refresh only its own agent's card");
    }
    return;
  }
  if (!allows(principal.permissions, 'REGISTRY', 'WRITE')) {
    throw HttpProblem.forbidden('REGISTRY:WRITE');
  }
}
