import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { GovernanceRecordSnapshot } from '@agp/contracts';

import { IngestedEvents } from '../../ingest/ingested-events';
import { GovernanceProjectionRepository } from './governance-projection.repository';

/** The governance detectors' input (issue 17, M16, D4). */
@Injectable()
export class GovernanceListener implements OnModuleInit {
  constructor(
    @Inject(IngestedEvents) private readonly ingested: IngestedEvents,
    @Inject(GovernanceProjectionRepository)
    private readonly projection: GovernanceProjectionRepository,
  ) {}

  onModuleInit(): void {
    this.ingested.observe(
      'monitor-governance',
      async (tx, envelopes) => {
        const byTenant = new Map<string, GovernanceRecordSnapshot[]>();
        for (const envelope of envelopes) {
          const record = (envelope.data as { record?: GovernanceRecordSnapshot }).record;
          if (envelope.type !== 'GOVERNANCE_LIFECYCLE' || !record) {
            continue;
          }
          byTenant.set(envelope.tenantId, [...(byTenant.get(envelope.tenantId) ?? []), record]);
        }
        for (const [tenantId, snapshots] of byTenant) {
          await this.projection.apply(tx, tenantId, snapshots);
        }
      },
      ['GOVERNANCE_LIFECYCLE'],
    );
  }
}
