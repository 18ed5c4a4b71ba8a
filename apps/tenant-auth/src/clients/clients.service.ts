import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { changedFields, recordAdminChange } from '@agp/admin-changes';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { AGENT_LIFECYCLE_CHANGES, AdminChange, ChangeTarget } from '@agp/contracts';
import { Database, isUniqueViolation, Tx } from '@agp/database';
import { Page, pageOf } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { hashClientSecret, newClientSecret } from '../common/credentials';
import { assertCanGrant } from '../common/grants';
import { revisionAfter } from '../common/revisions';
import { IdentityException } from '../common/identity.exception';
import { rolesOf } from '../common/permission-entry.dto';
import { TENANT_AUTH_DATABASE, TENANT_AUTH_OUTBOX } from '../database/tokens';
import { RevocationsService } from '../revocations/revocations.service';
import { ClientsRepository } from './clients.repository';
import { ClientResponseDto, ClientWithSecretResponseDto } from './dto/client-response.dto';
import { CreateClientDto } from './dto/create-client.dto';
import { ListClientsQueryDto } from './dto/list-clients-query.dto';
import { UpdateClientDto } from './dto/update-client.dto';
import { Client, ClientKind } from './client.types';

type AgentChange = (typeof AGENT_LIFECYCLE_CHANGES)[number];

const LABEL: Record<ClientKind, string> = { AGENT: 'agent', SERVICE: 'service account' };

const ADMIN_CHANGE_OF: Record<AgentChange, AdminChange> = {
  CREATED: 'CREATED',
  UPDATED: 'UPDATED',
  SUSPENDED: 'UPDATED',
  ACTIVATED: 'UPDATED',
  DELETED: 'DELETED',
};

/** An agent or a service account as the target of its change (D42). */
function clientTarget(client: Client): ChangeTarget {
  return {
    kind: client.kind === 'AGENT' ? 'AGENT' : 'SERVICE_ACCOUNT',
    id: client.id,
    name: client.name,
  };
}

/** Their secret is answered once, on creation and rotation (D30); only its hash is kept (D7). */
@Injectable()
export class ClientsService {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_OUTBOX) private readonly outbox: EventOutbox,
    private readonly clients: ClientsRepository,
    private readonly revocations: RevocationsService,
  ) {}

  list(
    kind: ClientKind,
    { principal }: RequestContext,
    query: ListClientsQueryDto,
  ): Promise<Page<ClientResponseDto>> {
    return this.database.inTenant(principal.tenantId, async (tx) => {
      const [items, total] = await this.clients.list(tx, principal.tenantId, kind, query);
      return pageOf(items.map(ClientResponseDto.of), total, query);
    });
  }

  get(kind: ClientKind, { principal }: RequestContext, id: string): Promise<ClientResponseDto> {
    return this.database.inTenant(principal.tenantId, async (tx) =>
      ClientResponseDto.of(await this.found(tx, kind, principal.tenantId, id)),
    );
  }

  create(
    kind: ClientKind,
    caller: RequestContext,
    dto: CreateClientDto,
  ): Promise<ClientWithSecretResponseDto> {
    const permissions = rolesOf(dto.permissions ?? []);
    assertCanGrant(caller.principal, permissions, 'permissions');
    const secret = newClientSecret();
    return this.unique(kind, () =>
      this.database.inTenant(caller.principal.tenantId, async (tx) => {
        const client = await this.clients.save(tx, {
          id: randomUUID(),
          tenantId: caller.principal.tenantId,
          kind,
          name: dto.name,
          description: dto.description ?? '',
          status: 'ACTIVE',
          secretHash: hashClientSecret(secret),
          secretRotatedAt: new Date(),
          permissions,
        });
        await this.lifecycle(tx, caller, client, 'CREATED', { after: client });
        return { ...ClientResponseDto.of(client), clientSecret: secret };
      }),
    );
  }

  async update(
    kind: ClientKind,
    caller: RequestContext,
    id: string,
    dto: UpdateClientDto,
  ): Promise<ClientResponseDto> {
    const { principal } = caller;
    let afterCommit: (() => Promise<void>) | undefined;
    const result = await this.unique(kind, () =>
      this.database.inTenant(principal.tenantId, async (tx) => {
        const client = await this.found(tx, kind, principal.tenantId, id);
        const before = { ...client };
        let change: AgentChange = 'UPDATED';
        if (dto.permissions) {
          client.permissions = rolesOf(dto.permissions);
          assertCanGrant(principal, client.permissions, 'permissions');
        }
        if (dto.status && dto.status !== client.status) {
          if (dto.status === 'SUSPENDED') {
            await this.revocations.revoke(tx, kind, id, 'SUSPENDED');
            change = 'SUSPENDED';
          } else {
            afterCommit = await this.revocations.restore(tx, kind, id);
            change = 'ACTIVATED';
          }
          client.status = dto.status;
        }
        client.name = dto.name ?? client.name;
        client.description = dto.description ?? client.description;
        const saved = await this.clients.save(tx, client);
        await this.lifecycle(tx, caller, saved, change, { before, after: saved });
        return ClientResponseDto.of(saved);
      }),
    );
    await afterCommit?.();
    return result;
  }

  async remove(kind: ClientKind, caller: RequestContext, id: string): Promise<void> {
    await this.database.inTenant(caller.principal.tenantId, async (tx) => {
      const client = await this.found(tx, kind, caller.principal.tenantId, id);
      // identity.md I2: its tokens stop at once, in every process, until they would have expired.
      await this.revocations.revoke(tx, kind, id, 'DELETED', true);
      await this.clients.remove(tx, caller.principal.tenantId, id);
      await this.lifecycle(tx, caller, client, 'DELETED', { before: client });
    });
  }

  /** D30: a new secret, answered once; the old one stops working now. Records CREDENTIAL_ROTATION. */
  rotateSecret(
    kind: ClientKind,
    caller: RequestContext,
    id: string,
  ): Promise<ClientWithSecretResponseDto> {
    const secret = newClientSecret();
    return this.database.inTenant(caller.principal.tenantId, async (tx) => {
      const client = await this.found(tx, kind, caller.principal.tenantId, id);
      const before = { ...client };
      client.secretHash = hashClientSecret(secret);
      client.secretRotatedAt = new Date();
      const saved = await this.clients.save(tx, client);
      await this.outbox.add(tx, 'CREDENTIAL_ROTATION', eventContext(caller), {
        actor: actorOf(caller),
        credential: kind === 'AGENT' ? 'AGENT_CLIENT_SECRET' : 'SERVICE_ACCOUNT_CLIENT_SECRET',
        subjectId: client.id,
        subjectName: client.name,
        summary: `client secret of ${LABEL[kind]} ${client.name} rotated`,
        details: { ...changedFields({ target: clientTarget(saved), before, after: saved }) },
      });
      return { ...ClientResponseDto.of(saved), clientSecret: secret };
    });
  }

  /** D42: an agent's change is AGENT_LIFECYCLE, a service account's ADMIN_CHANGE. */
  private async lifecycle(
    tx: Tx,
    caller: RequestContext,
    client: Client,
    change: AgentChange,
    values: { before?: Client; after?: Client },
  ): Promise<void> {
    const changes = { target: clientTarget(client), ...values };
    if (client.kind !== 'AGENT') {
      await recordAdminChange(this.outbox, tx, caller, ADMIN_CHANGE_OF[change], changes);
      return;
    }
    await this.outbox.add(tx, 'AGENT_LIFECYCLE', eventContext(caller), {
      sink: { type: 'AGENT', id: client.id, label: client.name },
      details: { ...changedFields(changes) },
      actor: actorOf(caller),
      agentId: client.id,
      name: client.name,
      change,
      status: change === 'DELETED' ? 'DELETED' : client.status,
      permissions: client.permissions,
      revision: revisionAfter(client, change),
      summary: `agent ${client.name} ${change.toLowerCase()}`,
    });
  }

  private async found(tx: Tx, kind: ClientKind, tenantId: string, id: string): Promise<Client> {
    const client = await this.clients.findById(tx, tenantId, kind, id);
    if (!client) {
      throw IdentityException.notFound(LABEL[kind], id);
    }
    return client;
  }

  private async unique<T>(kind: ClientKind, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw IdentityException.duplicate(`an ${LABEL[kind]} with this name already exists`);
      }
      throw error;
    }
  }
}
