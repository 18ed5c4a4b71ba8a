import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EventData, EventEnvelope } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventConsumers } from '@agp/messaging';

import { RELAY_CONSUMERS } from '../database/tokens';
import { UsersRepository } from './users.repository';

/** Issue 30: a DELETED tombstone stays, so a late event cannot bring the user back. */
@Injectable()
export class UsersListener implements OnModuleInit {
  constructor(
    @Inject(RELAY_CONSUMERS) private readonly consumers: EventConsumers,
    private readonly users: UsersRepository,
  ) {}

  onModuleInit(): void {
    this.consumers.register('users', ['USER_LIFECYCLE'], (event, tx) => this.apply(event, tx));
  }

  async apply(
    event: EventEnvelope<'USER_LIFECYCLE', EventData<'USER_LIFECYCLE'>>,
    tx: Tx,
  ): Promise<void> {
    const { data } = event;
    await this.users.upsert(tx, event.tenantId, {
      id: data.userId,
      email: data.email,
      displayName: data.displayName,
      status: data.change === 'DELETED' ? 'DELETED' : data.status,
      revision: data.revision,
    });
  }
}
