import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import {
  ConversationHop,
  ConversationHopsPage,
  ConversationHopsQuery,
  ConversationsPage,
  ConversationsQuery,
} from '@agp/contracts';
import { Database } from '@agp/database';
import { OWNER_QUERIES, OwnerQueries, StopListening } from '@agp/messaging';

import { AUDIT_DATABASE } from '../database/tokens';
import { ConversationsRepository } from './conversations.repository';

/** NATS refuses a message over 1 MiB: a page ends early once its captured content adds up. */
const MAX_PAGE_CONTENT_CHARS = 600_000;

/**
 * D44, D57: the audit service owns the trail (D4), so the relay asks it for conversations and
 * their hops, each question in the asking tenant's scope (conversations.md CV7).
 */
@Injectable()
export class ConversationsAnswerer implements OnModuleInit, OnModuleDestroy {
  private readonly stops: StopListening[] = [];

  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(OWNER_QUERIES) private readonly queries: OwnerQueries,
    private readonly conversations: ConversationsRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    this.stops.push(await this.queries.answer('CONVERSATIONS', (q) => this.list(q)));
    this.stops.push(await this.queries.answer('CONVERSATION_HOPS', (q) => this.read(q)));
  }

  onModuleDestroy(): void {
    this.stops.forEach((stop) => stop());
  }

  async list(query: ConversationsQuery): Promise<ConversationsPage> {
    const rows = await this.database.inTenant(query.tenantId, (tx) =>
      this.conversations.list(tx, query),
    );
    const last = rows.at(-1);
    return {
      conversations: rows,
      ...(rows.length === query.limit && last
        ? { next: { beforeAt: last.startedAt, beforeId: last.id } }
        : {}),
    };
  }

  /** Null when the tenant has no such conversation, or none of its hops the asker may read. */
  async read(query: ConversationHopsQuery): Promise<ConversationHopsPage | null> {
    const [conversation, rows] = await this.database.inTenant(query.tenantId, (tx) =>
      Promise.all([
        this.conversations.find(tx, query.tenantId, query.conversationId),
        this.conversations.hops(tx, query),
      ]),
    );
    if (!conversation) {
      return null;
    }
    const hops = withinBudget(rows);
    const last = hops.at(-1);
    const isFull = hops.length < rows.length || rows.length === query.limit;
    return {
      conversation,
      hops,
      ...(isFull && last ? { next: { afterAt: last.occurredAt, afterId: last.id } } : {}),
    };
  }
}

/** The first hops whose content fits the budget; a hop too big alone keeps only its digest. */
function withinBudget(rows: ConversationHop[]): ConversationHop[] {
  const kept: ConversationHop[] = [];
  let chars = 0;
  for (const hop of rows) {
    const size = hop.content?.length ?? 0;
    if (size > MAX_PAGE_CONTENT_CHARS) {
      const { content: _dropped, ...digestOnly } = hop;
      kept.push(digestOnly);
      continue;
    }
    if (kept.length > 0 && chars + size > MAX_PAGE_CONTENT_CHARS) {
      break;
    }
    kept.push(hop);
    chars += size;
  }
  return kept;
}
