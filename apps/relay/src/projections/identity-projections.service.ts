import { Inject, Injectable } from '@nestjs/common';
import {
  AgentSnapshot,
  QueryAnswer,
  QueryRequest,
  QueryType,
  TenantSnapshot,
  UserSnapshot,
} from '@agp/contracts';
import { Database } from '@agp/database';
import { OWNER_QUERIES, OwnerQueries, OwnerUnavailableError } from '@agp/messaging';

import { AgentsRepository } from '../agents/agents.repository';
import { RELAY_DATABASE } from '../database/tokens';
import { TenantsRepository } from '../tenants/tenants.repository';
import { UsersRepository } from '../users/users.repository';
import { ProjectionsErrorCode, ProjectionsException } from './projections.exception';

/** Ids a request is about to use that tenant-auth owns; absent, null and repeated ones are fine. */
export interface IdentityRefs {
  agents?: ReadonlyArray<string | null | undefined>;
  users?: ReadonlyArray<string | null | undefined>;
  /** The caller's own tenant (R15's slug). */
  tenant?: boolean;
}

interface Missing {
  agents: string[];
  users: string[];
  tenant: boolean;
}

/**
 * Issue 30: read your own writes. A missing id is asked of tenant-auth and seeded through the
 * revision-ordered upserts, so later events change nothing and older ones cannot undo it; nothing
 * in memory, so replicas cannot disagree. Called outside the request's transaction: the embedded
 * one-session database (D2) needs the connection for tenant-auth's answer.
 */
@Injectable()
export class IdentityProjections {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(OWNER_QUERIES) private readonly queries: OwnerQueries,
    private readonly agents: AgentsRepository,
    private readonly users: UsersRepository,
    private readonly tenants: TenantsRepository,
  ) {}

  async ensure(tenantId: string, refs: IdentityRefs): Promise<void> {
    const wanted = { agents: idsOf(refs.agents), users: idsOf(refs.users) };
    if (wanted.agents.length === 0 && wanted.users.length === 0 && !refs.tenant) {
      return;
    }
    const missing: Missing = await this.database.inTenant(tenantId, async (tx) => ({
      agents: await this.agents.missing(tx, tenantId, wanted.agents),
      users: await this.users.missing(tx, tenantId, wanted.users),
      tenant: refs.tenant === true && !(await this.tenants.isHeld(tx, tenantId)),
    }));
    if (missing.agents.length === 0 && missing.users.length === 0 && !missing.tenant) {
      return;
    }
    await this.seed(tenantId, missing);
  }

  private async seed(tenantId: string, missing: Missing): Promise<void> {
    const [agents, users, tenant] = await Promise.all([
      Promise.all(missing.agents.map((id) => this.ask('AGENT_IDENTITY', tenantId, id))),
      Promise.all(missing.users.map((id) => this.ask('USER_IDENTITY', tenantId, id))),
      missing.tenant ? this.ask('TENANT_IDENTITY', tenantId, tenantId) : null,
    ]);
    const found = {
      agents: agents.filter((a): a is AgentSnapshot => a !== null),
      users: users.filter((u): u is UserSnapshot => u !== null),
      tenant: tenant as TenantSnapshot | null,
    };
    if (found.agents.length === 0 && found.users.length === 0 && !found.tenant) {
      return;
    }
    await this.database.inTenant(tenantId, async (tx) => {
      for (const agent of found.agents) {
        await this.agents.upsertIdentity(tx, tenantId, {
          id: agent.agentId,
          name: agent.name,
          status: agent.status,
          permissions: agent.permissions,
          revision: agent.revision,
        });
      }
      for (const user of found.users) {
        await this.users.upsert(tx, tenantId, {
          id: user.userId,
          email: user.email,
          displayName: user.displayName,
          status: user.status,
          revision: user.revision,
        });
      }
      if (found.tenant) {
        await this.tenants.upsert(tx, found.tenant);
      }
    });
  }

  private async ask<
    T extends Exclude<
      QueryType,
      'RECORDED_HOPS' | 'CONVERSATIONS' | 'CONVERSATION_HOPS' | 'TELEMETRY_EXPORT'
    >,
  >(type: T, tenantId: string, id: string): Promise<QueryAnswer<T>> {
    let answer: QueryAnswer<T>;
    try {
      // Every identity query asks the same thing: an id in the asking tenant.
      answer = await this.queries.ask(type, { tenantId, id } as QueryRequest<T>);
    } catch (error) {
      if (error instanceof OwnerUnavailableError) {
        throw unavailable(error.message);
      }
      throw error;
    }
    if (answer && idOf(answer) !== id) {
      throw unavailable(`${type} about ${id} answered about ${idOf(answer)}`);
    }
    return answer;
  }
}

function unavailable(detail: string): ProjectionsException {
  return new ProjectionsException(
    ProjectionsErrorCode.OwnerUnavailable,
    `an id could not be checked with its owning service: ${detail}`,
    undefined,
    { 'Retry-After': '1' },
  );
}

function idOf(answer: AgentSnapshot | UserSnapshot | TenantSnapshot): string {
  return 'agentId' in answer
    ? answer.agentId
    : 'userId' in answer
      ? answer.userId
      : answer.tenantId;
}

function idsOf(ids: ReadonlyArray<string | null | undefined> = []): string[] {
  return [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
}
