import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EventData, EventEnvelope, OwnerStatus } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventConsumers } from '@agp/messaging';

import { RELAY_CONSUMERS } from '../database/tokens';
import { GovernanceEvents } from './governance-events';
import { GovernanceRepository } from './governance.repository';
import { DEFAULT_RISK_TIERS } from './risk-tiers';

/** Issue 17: idempotent through its consumer's inbox; a redelivery finds the status already set. */
@Injectable()
export class GovernanceOwnersListener implements OnModuleInit {
  constructor(
    @Inject(RELAY_CONSUMERS) private readonly consumers: EventConsumers,
    private readonly repository: GovernanceRepository,
    private readonly events: GovernanceEvents,
  ) {}

  onModuleInit(): void {
    this.consumers.register('governance-owners', ['USER_LIFECYCLE'], (event, tx) =>
      this.apply(event, tx),
    );
  }

  async apply(
    event: EventEnvelope<'USER_LIFECYCLE', EventData<'USER_LIFECYCLE'>>,
    tx: Tx,
  ): Promise<void> {
    const status: OwnerStatus =
      event.data.change === 'DELETED' || event.data.status === 'DELETED'
        ? 'DELETED'
        : event.data.status === 'ACTIVE'
          ? 'ACTIVE'
          : 'DISABLED';
    const ids = await this.repository.recordIdsWhere(tx, event.tenantId, {
      ownerUserId: event.data.userId,
    });
    if (ids.length === 0) {
      return;
    }
    const tiers = (await this.repository.tiers(tx, event.tenantId)) ?? DEFAULT_RISK_TIERS;
    const context = {
      tenantId: event.tenantId,
      correlationId: event.correlationId,
      actor: { type: 'SERVICE', label: 'relay governance' },
    };
    for (const id of ids) {
      const record = (await this.repository.findRecord(tx, event.tenantId, id))!;
      if (record.ownerStatus === status) {
        continue;
      }
      const updated = await this.repository.updateRecord(tx, event.tenantId, id, {
        ownerStatus: status,
      });
      const change = status === 'ACTIVE' ? 'OWNER_RESTORED' : 'OWNER_ORPHANED';
      await this.events.recordChange(
        tx,
        context,
        change,
        tiers,
        updated,
        `owner ${event.data.email} is ${status}`,
        {
          ownerUserId: event.data.userId,
        },
      );
    }
  }
}
