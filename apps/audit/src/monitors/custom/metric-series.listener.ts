import { Inject, Injectable, OnModuleInit } from '@nestjs/common';

import { IngestedEvents } from '../../ingest/ingested-events';
import { MetricSeriesService } from './metric-series.service';

// Keeps the custom monitors' cells in step with the audit trail (M29, as M16 keeps the rollups):
// counted in the ingest's transaction, so each stored event is counted once whatever the
// redeliveries, and nothing is lost across restarts.
@Injectable()
export class MetricSeriesListener implements OnModuleInit {
  constructor(
    @Inject(IngestedEvents) private readonly ingested: IngestedEvents,
    @Inject(MetricSeriesService) private readonly series: MetricSeriesService,
  ) {}

  onModuleInit(): void {
    this.ingested.observe('monitor-series', (tx, envelopes) =>
      this.series.recordIngested(tx, envelopes),
    );
  }
}
