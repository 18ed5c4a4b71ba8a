import { Module } from '@nestjs/common';

import { ChannelTrafficModule } from '../traffic/channels/channel-traffic.module';
import { TrafficModule } from '../traffic/traffic.module';
import { ConversationDelivery } from './conversation-delivery';
import { ConversationMessagesService } from './conversation-messages.service';
import { ConversationsController } from './conversations.controller';
import { ConversationsService } from './conversations.service';

/** D44, D57: conversations read from the audit trail's index, and an operator's messages. */
@Module({
  imports: [TrafficModule, ChannelTrafficModule],
  controllers: [ConversationsController],
  providers: [ConversationsService, ConversationMessagesService, ConversationDelivery],
})
export class ConversationsModule {}
