import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EventConsumers } from '@agp/messaging';

import { AUDIT_CONSUMERS } from '../../database/tokens';
import { TRAFFIC_EVENT_TYPES } from './rollup-counters';
import { RollupsService } from './rollups.service';

/** The `monitor-rollups` durable consumer: idempotent through the inbox (D5). */
@Injectable()
export class RollupsListener implements OnModuleInit {
  constructor(
    @Inject(AUDIT_CONSUMERS) private readonly consumers: EventConsumers,
    private readonly rollups: RollupsService,
  ) {}

  onModuleInit(): void {
    this.consumers.register('monitor-rollups', TRAFFIC_EVENT_TYPES, (event, tx) =>
      this.rollups.record(tx, event),
    );
  }
}
