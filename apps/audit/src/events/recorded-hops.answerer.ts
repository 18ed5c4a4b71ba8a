import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { RecordedHop, RecordedHopsPage, RecordedHopsQuery } from '@agp/contracts';
import { Database } from '@agp/database';
import { OWNER_QUERIES, OwnerQueries, StopListening } from '@agp/messaging';

import { AUDIT_DATABASE } from '../database/tokens';
import { RecordedHopsRepository } from './recorded-hops.repository';

/**
 * What one answer may carry in captured content: NATS refuses a message over 1 MiB, so a page
 * ends early when its content adds up, and a hop whose content alone is over this travels as a
 * digest-only hop, which a replay counts as unreplayable rather than guess (governance.md G10).
 */
const MAX_PAGE_CONTENT_CHARS = 600_000;

/**
 * D49 replay (governance.md G10): the audit service owns the trail (D4), so the relay asks it for
 * the recorded hops of a window, page by page, in the asking tenant's scope.
 */
@Injectable()
export class RecordedHopsAnswerer implements OnModuleInit, OnModuleDestroy {
  private stop?: StopListening;

  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(OWNER_QUERIES) private readonly queries: OwnerQueries,
    private readonly hops: RecordedHopsRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    this.stop = await this.queries.answer('RECORDED_HOPS', (query) => this.page(query));
  }

  onModuleDestroy(): void {
    this.stop?.();
  }

  async page(query: RecordedHopsQuery): Promise<RecordedHopsPage> {
    const rows = await this.database.inTenant(query.tenantId, (tx) =>
      this.hops.page(tx, query.tenantId, {
        from: query.from,
        to: query.to,
        ...(query.afterAt && query.afterId
          ? { after: { at: query.afterAt, id: query.afterId } }
          : {}),
        limit: query.limit,
      }),
    );
    const hops = withinBudget(rows);
    const last = hops.at(-1);
    const isFull = hops.length < rows.length || rows.length === query.limit;
    return {
      hops,
      ...(isFull && last ? { next: { afterAt: last.occurredAt, afterId: last.id } } : {}),
    };
  }
}

/** The first hops whose content fits the budget (at least one, its content dropped if alone too big). */
function withinBudget(rows: RecordedHop[]): RecordedHop[] {
  const kept: RecordedHop[] = [];
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
