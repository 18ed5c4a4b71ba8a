import { Inject, Injectable, OnModuleInit } from '@nestjs/common';

import { IngestedEvents } from '../../ingest/ingested-events';
import { RollupsService } from './rollups.service';

/** Keeps the rollups in step with the audit trail (M4, M16). */
@Injectable()
export class RollupsListener implements OnModuleInit {
  constructor(
    @Inject(IngestedEvents) private readonly ingested: IngestedEvents,
    @Inject(RollupsService) private readonly rollups: RollupsService,
  ) {}

  onModuleInit(): void {
    this.ingested.observe('monitor-rollups', (tx, envelopes) =>
      this.rollups.recordIngested(tx, envelopes),
    );
  }
}
