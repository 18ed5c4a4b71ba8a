import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { RequestContext, actorOf } from '@agp/auth';
import { AdminChange, TENANT_LIFECYCLE_CHANGES } from '@agp/contracts';
import { Database, isUniqueViolation, Tx } from '@agp/database';
import { Page, pageOf } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { IdentityException, IdentityErrorCode } from '../common/identity.exception';
import { TENANT_AUTH_DATABASE, TENANT_AUTH_OUTBOX } from '../database/tokens';
import { revisionAfter } from '../common/revisions';
import { RevocationsService } from '../revocations/revocations.service';
import { CreateTenantDto } from './dto/create-tenant.dto';
import { ListTenantsQueryDto } from './dto/list-tenants-query.dto';
import { CreatedTenantResponseDto, TenantResponseDto } from './dto/tenant-response.dto';
import { UpdateTenantDto } from './dto/update-tenant.dto';
import { Tenant } from './tenant.types';
import { TenantProvisioner } from './tenant-provisioner';
import { TenantsRepository } from './tenants.repository';

type TenantChange = (typeof TENANT_LIFECYCLE_CHANGES)[number];

/** identity.md I3: a tenant's administrators see and rename their own tenant. */
@Injectable()
export class TenantsService {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_OUTBOX) private readonly outbox: EventOutbox,
    private readonly tenants: TenantsRepository,
    private readonly provisioner: TenantProvisioner,
    private readonly revocations: RevocationsService,
  ) {}

  list(
    { principal }: RequestContext,
    query: ListTenantsQueryDto,
  ): Promise<Page<TenantResponseDto>> {
    return this.database.asSystem(async (tx) => {
      const onlyOwn = !(await this.isOperator(tx, principal.tenantId));
      const [items, total] = await this.tenants.list(
        tx,
        query,
        onlyOwn ? principal.tenantId : undefined,
      );
      return pageOf(items.map(TenantResponseDto.of), total, query);
    });
  }

  get({ principal }: RequestContext, id: string): Promise<TenantResponseDto> {
    return this.database.asSystem(async (tx) =>
      TenantResponseDto.of(await this.visible(tx, principal.tenantId, id)),
    );
  }

  async create(caller: RequestContext, dto: CreateTenantDto): Promise<CreatedTenantResponseDto> {
    try {
      return await this.database.asSystem(async (tx) => {
        await this.assertOperator(tx, caller.principal.tenantId);
        const { tenant, admin } = await this.provisioner.provision(
          tx,
          { ...dto, isOperator: false },
          actorOf(caller),
          caller.correlationId,
        );
        await this.audited(tx, caller, 'CREATED', { after: tenant });
        return { ...TenantResponseDto.of(tenant), initialAdministrator: admin };
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw IdentityException.duplicate(`a tenant with slug ${dto.slug} already exists`);
      }
      throw error;
    }
  }

  async update(
    caller: RequestContext,
    id: string,
    dto: UpdateTenantDto,
  ): Promise<TenantResponseDto> {
    let afterCommit: (() => Promise<void>) | undefined;
    const result = await this.database.asSystem(async (tx) => {
      const tenant = await this.visible(tx, caller.principal.tenantId, id);
      const before = { ...tenant };
      let change: TenantChange = 'UPDATED';
      if (dto.status && dto.status !== tenant.status) {
        await this.assertOperator(tx, caller.principal.tenantId);
        this.assertNotOwn(caller, id);
        if (dto.status === 'SUSPENDED') {
          // identity.md I2: every token of the tenant stops, in every process, before this commits.
          await this.revocations.revoke(tx, 'TENANT', id, 'SUSPENDED');
          change = 'SUSPENDED';
        } else {
          afterCommit = await this.revocations.restore(tx, 'TENANT', id);
          change = 'ACTIVATED';
        }
        tenant.status = dto.status;
      }
      tenant.name = dto.name ?? tenant.name;
      const saved = await this.tenants.save(tx, tenant);
      await this.lifecycle(tx, caller, saved, change);
      await this.audited(tx, caller, 'UPDATED', { before, after: saved });
      return TenantResponseDto.of(saved);
    });
    await afterCommit?.();
    return result;
  }

  async remove(caller: RequestContext, id: string): Promise<void> {
    await this.database.asSystem(async (tx) => {
      const tenant = await this.visible(tx, caller.principal.tenantId, id);
      await this.assertOperator(tx, caller.principal.tenantId);
      this.assertNotOwn(caller, id);
      await this.revocations.revoke(tx, 'TENANT', id, 'DELETED', true);
      await this.tenants.remove(tx, id);
      await this.lifecycle(tx, caller, tenant, 'DELETED');
      await this.audited(tx, caller, 'DELETED', { before: tenant });
    });
  }

  // D42: ADMIN_CHANGE in the trail of the administrator's tenant (the operator's, when it manages
  // another), where the actor is accountable; TENANT_LIFECYCLE tells the changed tenant's services.
  private async audited(
    tx: Tx,
    caller: RequestContext,
    change: AdminChange,
    values: { before?: Tenant; after?: Tenant },
  ): Promise<void> {
    const tenant = (values.after ?? values.before)!;
    await recordAdminChange(this.outbox, tx, caller, change, {
      target: { kind: 'TENANT', id: tenant.id, name: tenant.slug },
      ...values,
    });
  }

  private async lifecycle(
    tx: Tx,
    caller: RequestContext,
    tenant: Tenant,
    change: TenantChange,
  ): Promise<void> {
    await this.outbox.add(
      tx,
      'TENANT_LIFECYCLE',
      { tenantId: tenant.id, correlationId: caller.correlationId },
      {
        actor: actorOf(caller),
        tenantId: tenant.id,
        slug: tenant.slug,
        change,
        ...(change === 'DELETED' ? {} : { status: tenant.status }),
        revision: revisionAfter(tenant, change),
        summary: `tenant ${tenant.slug} ${change.toLowerCase()}`,
      },
    );
  }

  /** Another tenant is not found (D12) unless the caller is the operator's. */
  private async visible(tx: Tx, callerTenantId: string, id: string): Promise<Tenant> {
    const tenant = await this.tenants.findById(tx, id);
    if (!tenant || (tenant.id !== callerTenantId && !(await this.isOperator(tx, callerTenantId)))) {
      throw IdentityException.notFound('tenant', id);
    }
    return tenant;
  }

  private async isOperator(tx: Tx, tenantId: string): Promise<boolean> {
    return (await this.tenants.findById(tx, tenantId))?.isOperator === true;
  }

  private async assertOperator(tx: Tx, tenantId: string): Promise<void> {
    if (!(await this.isOperator(tx, tenantId))) {
      throw new IdentityException(
        IdentityErrorCode.OperatorOnly,
        'only administrators of the operator tenant manage other tenants',
      );
    }
  }

  private assertNotOwn(caller: RequestContext, id: string): void {
    if (caller.principal.tenantId === id) {
      throw new IdentityException(
        IdentityErrorCode.InvalidState,
        'a tenant cannot suspend or delete itself',
      );
    }
  }
}
