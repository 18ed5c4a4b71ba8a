import { Module } from '@nestjs/common';

import { IngestedEvents } from './ingested-events';

/** The ingest's observers (M16), apart from the ingest so that what observes needs nothing else of it. */
@Module({ providers: [IngestedEvents], exports: [IngestedEvents] })
export class IngestedEventsModule {}
