import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EventData, EventEnvelope } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventConsumers } from '@agp/messaging';

import { RELAY_CONSUMERS } from '../database/tokens';
import { TenantsRepository } from './tenants.repository';

/** POLICY.md `tenant.slug`, read with the policies: a change reaches decisions within R15's TTL. */
@Injectable()
export class TenantsListener implements OnModuleInit {
  constructor(
    @Inject(RELAY_CONSUMERS) private readonly consumers: EventConsumers,
    private readonly tenants: TenantsRepository,
  ) {}

  onModuleInit(): void {
    this.consumers.register('tenants', ['TENANT_LIFECYCLE'], (event, tx) => this.apply(event, tx));
  }

  async apply(
    event: EventEnvelope<'TENANT_LIFECYCLE', EventData<'TENANT_LIFECYCLE'>>,
    tx: Tx,
  ): Promise<void> {
    const { data } = event;
    await this.tenants.upsert(tx, {
      tenantId: data.tenantId,
      slug: data.slug,
      status: statusOf(data),
      revision: data.revision,
    });
  }
}

/** The event's own status; producers without one leave it to the change (an UPDATED meant ACTIVE). */
function statusOf(data: EventData<'TENANT_LIFECYCLE'>): string {
  if (data.change === 'DELETED') {
    return 'DELETED';
  }
  return data.status ?? (data.change === 'SUSPENDED' ? 'SUSPENDED' : 'ACTIVE');
}
