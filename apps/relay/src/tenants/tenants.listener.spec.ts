import { EventData, EventEnvelope } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventConsumers } from '@agp/messaging';

import { TenantsListener } from './tenants.listener';
import { ProjectedTenant, TenantsRepository } from './tenants.repository';

type TenantEvent = EventEnvelope<'TENANT_LIFECYCLE', EventData<'TENANT_LIFECYCLE'>>;

function projected(data: Partial<EventData<'TENANT_LIFECYCLE'>>): Promise<ProjectedTenant> {
  return new Promise((resolve) => {
    const repository = { upsert: async (_tx: Tx, tenant: ProjectedTenant) => resolve(tenant) };
    const listener = new TenantsListener(
      {} as EventConsumers,
      repository as unknown as TenantsRepository,
    );
    const event = {
      data: { tenantId: 't', slug: 'acme', change: 'UPDATED', revision: 3, ...data },
    } as TenantEvent;
    void listener.apply(event, {} as Tx);
  });
}

describe('TenantsListener', () => {
  it('keeps a suspended tenant suspended when it is renamed', async () => {
    expect((await projected({ change: 'UPDATED', status: 'SUSPENDED' })).status).toBe('SUSPENDED');
  });

  it('takes the change when an older producer sent no status', async () => {
    expect((await projected({ change: 'UPDATED' })).status).toBe('ACTIVE');
    expect((await projected({ change: 'SUSPENDED' })).status).toBe('SUSPENDED');
    expect((await projected({ change: 'DELETED', status: 'ACTIVE' })).status).toBe('DELETED');
  });
});
