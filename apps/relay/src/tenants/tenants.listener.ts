import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EventData, EventEnvelope } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventConsumers } from '@agp/messaging';

import { RELAY_CONSUMERS } from '../database/tokens';

/**
 * Keeps the tenants projection (slug and status) from tenant-auth's TENANT_LIFECYCLE, so the
 * decision input carries `tenant.slug` (POLICY.md). The projection is read with the tenant's
 * policies, so a slug change reaches decisions
 * within the cache's TTL (R15).
 */
@Injectable()
export class TenantsListener implements OnModuleInit {
  constructor(@Inject(RELAY_CONSUMERS) private readonly consumers: EventConsumers) {}

  onModuleInit(): void {
    this.consumers.register('tenants', ['TENANT_LIFECYCLE'], (event, tx) => this.apply(event, tx));
  }

  async apply(
    event: EventEnvelope<'TENANT_LIFECYCLE', EventData<'TENANT_LIFECYCLE'>>,
    tx: Tx,
  ): Promise<void> {
    const { data } = event;
    const status =
      data.change === 'DELETED' ? 'DELETED' : data.change === 'SUSPENDED' ? 'SUSPENDED' : 'ACTIVE';
    await tx.query(
      `INSERT INTO relay.tenants (tenant_id, slug, status) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id) DO UPDATE SET slug = excluded.slug, status = excluded.status, updated_at = now()`,
      [data.tenantId, data.slug, status],
    );
  }
}
