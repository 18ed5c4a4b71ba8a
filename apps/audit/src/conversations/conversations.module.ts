import { Module } from '@nestjs/common';

import { IngestedEventsModule } from '../ingest/ingested-events.module';
import { ConversationIndexRepository } from './conversation-index.repository';
import { ConversationIndexer } from './conversation-indexer';
import { ConversationsAnswerer } from './conversations.answerer';
import { ConversationsRepository } from './conversations.repository';

/** D44: the conversation index kept with the trail, and the relay's questions about it. */
@Module({
  imports: [IngestedEventsModule],
  providers: [
    ConversationIndexRepository,
    ConversationIndexer,
    ConversationsRepository,
    ConversationsAnswerer,
  ],
})
export class ConversationsModule {}
