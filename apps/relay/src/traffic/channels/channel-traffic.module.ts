import { Module } from '@nestjs/common';

import { TrafficModule } from '../traffic.module';
import { ChannelAgent } from './channel-agent';
import { ChannelDirectory } from './channel-directory';
import { ChannelEventsController } from './channel-events.controller';
import { ChannelEventsRepository } from './channel-events.repository';
import { ChannelEventsRetentionJob } from './channel-events-retention.job';
import { ChannelExchange } from './channel-exchange';
import { ChannelIntake } from './channel-intake.service';
import { ChannelReplies } from './channel-replies';
import { ChannelWorker } from './channel-worker';

/** D43, D56: one more hop-pipeline adapter, with the reply in the background. */
@Module({
  imports: [TrafficModule],
  controllers: [ChannelEventsController],
  providers: [
    ChannelDirectory,
    ChannelEventsRepository,
    ChannelAgent,
    ChannelReplies,
    ChannelExchange,
    ChannelWorker,
    ChannelIntake,
    ChannelEventsRetentionJob,
  ],
  // The operator's messages of D44 reach a thread or an agent the way a channel's replies do.
  exports: [ChannelEventsRetentionJob, ChannelDirectory, ChannelReplies, ChannelAgent],
})
export class ChannelTrafficModule {}
