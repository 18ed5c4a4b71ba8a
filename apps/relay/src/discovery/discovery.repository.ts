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
import { searchStatement } from './search-statement';
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
    const { sql, params } = searchStatement(
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
    if (filters.q !== undefined) {
      // DS13: the planner prices a broad OR match as cheap per row and scans the whole table;
      // the GIN index was two to four times faster at 10,000 entries (BENCHMARKS.md).
      await tx.query('SET LOCAL enable_seqscan = off');
    }
    const rows: Row[] = await tx.query(sql, params);
    const entries = rows.slice(0, limit).map(toEntry);
    const last = entries[entries.length - 1];
    return {
      entries,
      ...(rows.length > limit && last
        ? { next: { rank: last.rank, name: last.name, id: last.id } }
        : {}),
    };
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
