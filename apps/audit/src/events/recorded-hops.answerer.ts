import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { RecordedHopsPage, RecordedHopsQuery } from '@agp/contracts';
import { Database } from '@agp/database';
import { OWNER_QUERIES, OwnerQueries, StopListening } from '@agp/messaging';

import { AUDIT_DATABASE } from '../database/tokens';
import { contentBudgetPage } from './content-budget-page';
import { RecordedHopsRepository } from './recorded-hops.repository';

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
    return contentBudgetPage(rows, query.limit);
  }
}
