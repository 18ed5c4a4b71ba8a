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
 * Read your own writes across services (issue 30). The relay's projections of tenant-auth's
 * agents, users and tenants follow its events, which arrive a moment after tenant-auth commits
 * (the outbox, then NATS). A request that names such an id calls `ensure` first: every id this
 * replica's projection lacks is asked of tenant-auth (`OWNER_QUERIES`, in the caller's tenant
 * only) and seeded from the answer, through the same revision-ordered upserts as the events, so the
 * later event changes nothing and an older one cannot undo the seed. An id tenant-auth does not
 * have stays absent, and the request answers its usual 404 or 400. Held ids (a DELETED tombstone
 * included) cost one read and no question. Nothing is kept in memory: every replica asks for
 * itself and seeds the shared database, so replicas cannot contradict one another.
 *
 * Called before the request's own transaction: the question must not hold a connection, which in
 * the embedded one-session database (D2) tenant-auth's answer needs.
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

  /** tenant-auth's answer about one id, checked to be about that id. */
  private async ask<T extends Exclude<QueryType, 'RECORDED_HOPS'>>(
    type: T,
    tenantId: string,
    id: string,
  ): Promise<QueryAnswer<T>> {
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
