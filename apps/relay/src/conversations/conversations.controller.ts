import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { uuidParam } from '@agp/http';

import { ConversationMessagesService } from './conversation-messages.service';
import { ConversationsService } from './conversations.service';
import {
  ConversationDetailResponse,
  ConversationListResponse,
  PostedMessageResponse,
} from './conversations.types';
import { ListConversationsQueryDto } from './dto/list-conversations-query.dto';
import { PostConversationMessageDto } from './dto/post-conversation-message.dto';
import { ReadConversationQueryDto } from './dto/read-conversation-query.dto';

/**
 * D44, D57: `/relay/v1/conversations`. A read needs AGENT_CONVERSATIONS or MCP_CONVERSATIONS
 * (either: the caller sees the families it holds, CV6), so the service checks it; an operator's
 * message needs AGENT_CONVERSATIONS:WRITE (CV10).
 */
@Controller('relay/v1/conversations')
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: ConversationMessagesService,
  ) {}

  @Get()
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListConversationsQueryDto,
  ): Promise<ConversationListResponse> {
    return this.conversations.list(ctx, query);
  }

  @Get(':conversationId')
  get(
    @Ctx() ctx: RequestContext,
    @Param('conversationId', uuidParam('conversationId')) id: string,
    @Query() query: ReadConversationQueryDto,
  ): Promise<ConversationDetailResponse> {
    return this.conversations.get(ctx, id, query);
  }

  /** 201 once delivered; 403 when its policies (or a kill switch) stop it; 409 for MCP (CV13). */
  @Post(':conversationId/messages')
  @RequirePermission('AGENT_CONVERSATIONS', 'WRITE')
  post(
    @Ctx() ctx: RequestContext,
    @Param('conversationId', uuidParam('conversationId')) id: string,
    @Body() dto: PostConversationMessageDto,
  ): Promise<PostedMessageResponse> {
    return this.messages.post(ctx, id, dto);
  }
}
