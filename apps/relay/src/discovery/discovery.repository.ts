import { Injectable } from '@nestjs/common';
import { AgentVisibility } from '@agp/contracts';
import { Row, str, Tx } from '@agp/database';

import {
  DiscoveryEntry,
  DiscoveryFilters,
  DiscoveryKind,
  DiscoveryResult,
  SearchCursor,
  Viewer,
} from './discovery.types';
import { runSearch } from './search-statement';
import { viewerParam, visibleToSql } from './visibility';

/** The index the triggers keep (DS2); read only here. */
@Injectable()
export class DiscoveryRepository {
  async search(
    tx: Tx,
    tenantId: string,
    kind: DiscoveryKind,
    viewer: Viewer,
    filters: DiscoveryFilters,
    limit: number,
    after?: SearchCursor,
  ): Promise<DiscoveryResult> {
    const { rows, next } = await runSearch(
      tx,
      {
        table: 'relay.discovery_entries',
        alias: 'e',
        id: 'entry_id',
        name: 'name',
        document: 'document',
        facets: 'facets',
        columns: 'e.entry_id, e.kind, e.name, e.description, e.visibility, e.summary',
        where: `e.tenant_id = $1 AND e.kind = $2 AND ${visibleToSql('e', '$3', 'entry_id')}`,
        params: [tenantId, kind, viewerParam(viewer)],
      },
      filters,
      limit,
      after,
    );
    return { entries: rows.map(toEntry), ...(next ? { next } : {}) };
  }
}

function toEntry(row: Row): DiscoveryEntry {
  return {
    id: String(row.entry_id),
    kind: String(row.kind) as DiscoveryKind,
    name: String(row.name),
    description: str(row.description),
    visibility: String(row.visibility) as AgentVisibility,
    summary: (row.summary ?? {}) as Record<string, unknown>,
    rank: Number(row.rank),
  };
}
