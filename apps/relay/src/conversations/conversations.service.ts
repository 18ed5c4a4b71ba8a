import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import {
  ConversationFamily,
  ConversationHop,
  ConversationHopsPage,
  ConversationRecord,
  QueryAnswer,
  QueryRequest,
  QueryType,
} from '@agp/contracts';
import { OWNER_QUERIES, OwnerQueries, OwnerUnavailableError } from '@agp/messaging';

import { readableFamilies } from './conversation-access';
import { decodeCursor, encodeCursor } from './conversation-cursor';
import { ConversationsErrorCode, ConversationsException } from './conversations.exception';
import {
  ConversationDetailResponse,
  ConversationListResponse,
  ConversationMessageResponse,
  ConversationResponse,
} from './conversations.types';
import { ListConversationsQueryDto } from './dto/list-conversations-query.dto';
import { ReadConversationQueryDto } from './dto/read-conversation-query.dto';

/**
 * D44, D57: conversations are read from the audit trail's index (conversations.md CV4, CV7); the
 * relay checks who may read what (CV6) and speaks the public API.
 */
@Injectable()
export class ConversationsService {
  constructor(@Inject(OWNER_QUERIES) private readonly queries: OwnerQueries) {}

  async list(
    ctx: RequestContext,
    query: ListConversationsQueryDto,
  ): Promise<ConversationListResponse> {
    const families = readableFamilies(ctx.principal);
    const before = query.cursor ? decodeCursor(query.cursor) : undefined;
    const page = await this.ask('CONVERSATIONS', {
      tenantId: ctx.tenantId,
      families,
      ...(query.agentId ? { agentId: query.agentId } : {}),
      ...(query.userId ? { userId: query.userId } : {}),
      ...(query.channelId ? { channelId: query.channelId } : {}),
      ...(query.mcpServerId ? { mcpServerId: query.mcpServerId } : {}),
      ...(query.from ? { from: new Date(query.from).toISOString() } : {}),
      ...(query.to ? { to: new Date(query.to).toISOString() } : {}),
      ...(before ? { beforeAt: before.at, beforeId: before.id } : {}),
      limit: query.limit,
    });
    const conversations = page?.conversations ?? [];
    return {
      items: conversations.map(conversationResponse),
      ...(page?.next
        ? { nextCursor: encodeCursor({ at: page.next.beforeAt, id: page.next.beforeId }) }
        : {}),
    };
  }

  async get(
    ctx: RequestContext,
    id: string,
    query: ReadConversationQueryDto,
  ): Promise<ConversationDetailResponse> {
    const page = await this.readPage(ctx.tenantId, id, readableFamilies(ctx.principal), query);
    return {
      ...conversationResponse(page.conversation),
      messages: page.hops.map(messageResponse),
      ...(page.next
        ? { nextCursor: encodeCursor({ at: page.next.afterAt, id: page.next.afterId }) }
        : {}),
    };
  }

  /** CV6: a conversation none of whose hops the caller may read is not found, like another tenant's. */
  async readPage(
    tenantId: string,
    id: string,
    families: ConversationFamily[],
    query: { cursor?: string; limit: number },
  ): Promise<ConversationHopsPage & { conversation: ConversationRecord }> {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const page = await this.ask('CONVERSATION_HOPS', {
      tenantId,
      conversationId: id,
      families,
      ...(after ? { afterAt: after.at, afterId: after.id } : {}),
      limit: query.limit,
    });
    const visible =
      page?.conversation &&
      (page.hops.length > 0 || after !== undefined || isVisible(page.conversation, families));
    if (!page || !visible) {
      throw new ConversationsException(
        ConversationsErrorCode.NotFound,
        `conversation ${id} was not found`,
      );
    }
    return page as ConversationHopsPage & { conversation: ConversationRecord };
  }

  private async ask<T extends QueryType>(
    type: T,
    request: QueryRequest<T>,
  ): Promise<QueryAnswer<T>> {
    try {
      return await this.queries.ask(type, request);
    } catch (error) {
      if (error instanceof OwnerUnavailableError) {
        throw new ConversationsException(
          ConversationsErrorCode.AuditUnavailable,
          `conversations could not be read from the audit trail: ${error.message}`,
          undefined,
          { 'Retry-After': '1' },
        );
      }
      throw error;
    }
  }
}

function isVisible(conversation: ConversationRecord, families: ConversationFamily[]): boolean {
  const hasMcp = conversation.protocols.includes('MCP');
  const hasAgent = conversation.protocols.some((p) => p !== 'MCP');
  return (families.includes('MCP') && hasMcp) || (families.includes('AGENT') && hasAgent);
}

export function conversationResponse(c: ConversationRecord): ConversationResponse {
  return {
    id: c.id,
    keyKind: c.keyKind,
    key: c.key,
    startedAt: c.startedAt,
    lastAt: c.lastAt,
    hopCount: c.hopCount,
    protocols: c.protocols,
    agentIds: c.agentIds,
    userIds: c.userIds,
    channelIds: c.channelIds,
    mcpServerIds: c.mcpServerIds,
  };
}

function messageResponse(hop: ConversationHop): ConversationMessageResponse {
  return {
    id: hop.id,
    at: hop.occurredAt,
    ...(hop.direction ? { direction: hop.direction } : {}),
    protocol: hop.protocol,
    source: hop.source,
    sink: hop.sink,
    ...(hop.method ? { method: hop.method } : {}),
    ...(hop.toolName ? { toolName: hop.toolName } : {}),
    decision: { action: hop.action, policies: hop.policyIds, reasons: hop.reasons },
    ...(hop.content !== undefined ? { content: parsed(hop.content) } : {}),
    ...(hop.contentDigest ? { contentDigest: hop.contentDigest } : {}),
    correlationId: hop.correlationId,
  };
}

/** D40: the trail keeps the masked message as JSON text; it is answered as the JSON it was. */
function parsed(content: string): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return content;
  }
}
