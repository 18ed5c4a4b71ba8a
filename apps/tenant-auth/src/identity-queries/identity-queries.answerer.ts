import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AgentSnapshot, IdentityQuery, TenantSnapshot, UserSnapshot } from '@agp/contracts';
import { Database } from '@agp/database';
import { OWNER_QUERIES, OwnerQueries, StopListening } from '@agp/messaging';

import { ClientsRepository } from '../clients/clients.repository';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { TenantsRepository } from '../tenants/tenants.repository';
import { UsersRepository } from '../users/users.repository';

/** Each answer is read in the asking tenant's scope (row-level security included) (issue 30). */
@Injectable()
export class IdentityQueriesAnswerer implements OnModuleInit, OnModuleDestroy {
  private readonly stops: StopListening[] = [];

  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(OWNER_QUERIES) private readonly queries: OwnerQueries,
    private readonly clients: ClientsRepository,
    private readonly users: UsersRepository,
    private readonly tenants: TenantsRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    this.stops.push(
      await this.queries.answer('AGENT_IDENTITY', (query) => this.agent(query)),
      await this.queries.answer('USER_IDENTITY', (query) => this.user(query)),
      await this.queries.answer('TENANT_IDENTITY', (query) => this.tenant(query)),
    );
  }

  /** Stop answering before the database closes: an asker then hears "no answerer", not a failure. */
  onModuleDestroy(): void {
    this.stops.splice(0).forEach((stop) => stop());
  }

  agent({ tenantId, id }: IdentityQuery): Promise<AgentSnapshot | null> {
    return this.database.inTenant(tenantId, async (tx) => {
      const agent = await this.clients.findById(tx, tenantId, 'AGENT', id);
      return agent
        ? {
            agentId: agent.id,
            name: agent.name,
            status: agent.status,
            permissions: agent.permissions,
            revision: agent.revision,
          }
        : null;
    });
  }

  user({ tenantId, id }: IdentityQuery): Promise<UserSnapshot | null> {
    return this.database.inTenant(tenantId, async (tx) => {
      const user = await this.users.findById(tx, tenantId, id);
      return user
        ? {
            userId: user.id,
            email: user.email,
            displayName: user.displayName ?? undefined,
            status: user.status,
            revision: user.revision,
          }
        : null;
    });
  }

  /** A tenant answers only about itself: the asking tenant is the only one it may see. */
  async tenant({ tenantId, id }: IdentityQuery): Promise<TenantSnapshot | null> {
    if (id !== tenantId) {
      return null;
    }
    const tenant = await this.database.asSystem((tx) => this.tenants.findById(tx, id));
    return tenant
      ? { tenantId: tenant.id, slug: tenant.slug, status: tenant.status, revision: tenant.revision }
      : null;
  }
}
