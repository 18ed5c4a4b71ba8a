import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import { ACTIONS, Action, PROTOCOLS, Protocol } from '../enums/policy';
import { EventParty } from '../events/auditable-event.data';

/** The most conversations or messages one answer carries (content keeps it under NATS's 1 MiB). */
export const MAX_CONVERSATIONS_PAGE = 100;

/** conversations.md CV3: what keyed a conversation, in D44's order of precedence. */
export const CONVERSATION_KEY_KINDS = [
  'A2A_CONTEXT',
  'MCP_SESSION',
  'CHANNEL_THREAD',
  'CORRELATION',
] as const;
export type ConversationKeyKind = (typeof CONVERSATION_KEY_KINDS)[number];

/** D44: AGENT (agent, people and channel paths) or MCP; a reader sees the families it may read. */
export const CONVERSATION_FAMILIES = ['AGENT', 'MCP'] as const;
export type ConversationFamily = (typeof CONVERSATION_FAMILIES)[number];

/** D57 list filters, in the asking tenant's scope, newest first after `(beforeAt, beforeId)`. */
export class ConversationsQuery {
  @IsUUID()
  tenantId: string;

  @IsArray()
  @IsIn(CONVERSATION_FAMILIES, { each: true })
  families: ConversationFamily[];

  @IsOptional() @IsString() @MaxLength(200) agentId?: string;
  @IsOptional() @IsString() @MaxLength(200) userId?: string;
  @IsOptional() @IsString() @MaxLength(200) channelId?: string;
  @IsOptional() @IsString() @MaxLength(200) mcpServerId?: string;

  @IsOptional() @IsISO8601({ strict: true }) from?: string;
  @IsOptional() @IsISO8601({ strict: true }) to?: string;

  @IsOptional() @IsISO8601({ strict: true }) beforeAt?: string;
  @IsOptional() @IsUUID() beforeId?: string;

  @IsInt()
  @Min(1)
  @Max(MAX_CONVERSATIONS_PAGE)
  limit: number;
}

/** One conversation as the audit trail indexed it (conversations.md CV4). */
export class ConversationRecord {
  @IsUUID() id: string;
  @IsIn(CONVERSATION_KEY_KINDS) keyKind: ConversationKeyKind;
  @IsString() @MaxLength(600) key: string;
  @IsISO8601({ strict: true }) startedAt: string;
  @IsISO8601({ strict: true }) lastAt: string;
  @IsInt() hopCount: number;
  @IsArray() @IsIn(PROTOCOLS, { each: true }) protocols: Protocol[];
  @IsArray() @IsString({ each: true }) @ArrayMaxSize(1000) agentIds: string[];
  @IsArray() @IsString({ each: true }) @ArrayMaxSize(1000) userIds: string[];
  @IsArray() @IsString({ each: true }) @ArrayMaxSize(1000) channelIds: string[];
  @IsArray() @IsString({ each: true }) @ArrayMaxSize(1000) mcpServerIds: string[];
}

export class ConversationsPage {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ConversationRecord)
  conversations: ConversationRecord[];

  @IsOptional()
  @IsObject()
  next?: { beforeAt: string; beforeId: string };
}

/** One conversation's hops, oldest first, after `(afterAt, afterId)`, of the families asked. */
export class ConversationHopsQuery {
  @IsUUID() tenantId: string;
  @IsUUID() conversationId: string;

  @IsArray()
  @IsIn(CONVERSATION_FAMILIES, { each: true })
  families: ConversationFamily[];

  @IsOptional() @IsISO8601({ strict: true }) afterAt?: string;
  @IsOptional() @IsUUID() afterId?: string;

  @IsInt()
  @Min(1)
  @Max(MAX_CONVERSATIONS_PAGE)
  limit: number;
}

/** One hop of a conversation (D57): `content` only when it was captured (D40), else the digest. */
export class ConversationHop {
  @IsUUID() id: string;
  @IsISO8601({ strict: true }) occurredAt: string;
  @IsIn(PROTOCOLS) protocol: Protocol;
  @IsOptional() @IsString() @MaxLength(32) direction?: string;
  @ValidateNested() @Type(() => EventParty) source: EventParty;
  @ValidateNested() @Type(() => EventParty) sink: EventParty;
  @IsOptional() @IsString() @MaxLength(200) method?: string;
  @IsOptional() @IsString() @MaxLength(200) toolName?: string;
  @IsIn(ACTIONS) action: Action;
  @IsArray() @IsString({ each: true }) policyIds: string[];
  @IsArray() @IsString({ each: true }) reasons: string[];
  @IsOptional() @IsString() content?: string;
  @IsOptional() @IsString() @MaxLength(64) contentDigest?: string;
  @IsString() @MaxLength(200) correlationId: string;
  /** Where an operator's message goes (CV12): the channel, thread, context or session of the hop. */
  @IsObject() route: Record<string, string>;
}

export class ConversationHopsPage {
  @IsOptional()
  @ValidateNested()
  @Type(() => ConversationRecord)
  conversation?: ConversationRecord;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ConversationHop)
  hops: ConversationHop[];

  @IsOptional()
  @IsObject()
  next?: { afterAt: string; afterId: string };
}
