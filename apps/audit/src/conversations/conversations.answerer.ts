import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import {
  ConversationHopsPage,
  ConversationHopsQuery,
  ConversationsPage,
  ConversationsQuery,
} from '@agp/contracts';
import { Database } from '@agp/database';
import { OWNER_QUERIES, OwnerQueries, StopListening } from '@agp/messaging';

import { AUDIT_DATABASE } from '../database/tokens';
import { contentBudgetPage } from '../events/content-budget-page';
import { ConversationsRepository } from './conversations.repository';

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
    return { conversation, ...contentBudgetPage(rows, query.limit) };
  }
}
