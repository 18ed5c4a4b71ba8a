import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EventData, EventEnvelope } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventConsumers } from '@agp/messaging';

import { RELAY_CONSUMERS } from '../database/tokens';
import { AgentsRepository } from './agents.repository';
import { RELAY_ORIGIN } from './agents.service';

/** Issue 30: idempotent through the inbox; an older event never undoes a newer revision. */
@Injectable()
export class AgentsListener implements OnModuleInit {
  constructor(
    @Inject(RELAY_CONSUMERS) private readonly consumers: EventConsumers,
    private readonly agents: AgentsRepository,
  ) {}

  onModuleInit(): void {
    this.consumers.register('agents', ['AGENT_LIFECYCLE'], (event, tx) => this.apply(event, tx));
  }

  async apply(
    event: EventEnvelope<'AGENT_LIFECYCLE', EventData<'AGENT_LIFECYCLE'>>,
    tx: Tx,
  ): Promise<void> {
    const { data } = event;
    if (data.details?.origin === RELAY_ORIGIN) {
      return;
    }
    // A deleted agent stays as DELETED so bindings and audit trails keep its name.
    const status = data.change === 'DELETED' ? 'DELETED' : data.status;
    await this.agents.upsertIdentity(tx, event.tenantId, {
      id: data.agentId,
      name: data.name,
      status,
      permissions: data.permissions,
      revision: data.revision,
    });
  }
}
