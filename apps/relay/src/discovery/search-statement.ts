import { Row, Tx } from '@agp/database';

import { SearchCursor, SearchFilters } from './discovery.types';
import { facetsOf, textQueryOf } from './search-query';

/** DS3: D, C, B, A, the weights `ts_rank` gives each part of the document. */
export const RANK_WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';

/**
 * A table that can be searched like the discovery index (DS9): it has a weighted `tsvector`
 * (`relay.discovery_card_document` makes one from any A2A card), a `text[]` of facets
 * (`relay.discovery_card_facets`), a name and a uuid id. `where` holds the table's own scope
 * (tenant, kind, visibility) with `$1`… for `params`; the statement numbers its own after them.
 */
export interface SearchSource {
  table: string;
  alias: string;
  id: string;
  name: string;
  document: string;
  facets: string;
  /** What to select besides `rank` (`e.entry_id, e.name, …`). */
  columns: string;
  where: string;
  params: unknown[];
}

export interface SearchStatement {
  sql: string;
  params: unknown[];
}

/**
 * DS3, DS5, DS6: the filters as a GIN-indexed containment, the text as a GIN-indexed match ranked
 * by `ts_rank` (normalised by the document's length), pages by keyset on (rank, name, id) so
 * replicas and concurrent changes never repeat or skip an entry that stayed put. Selects
 * `columns` plus `rank`; asks one row more than `limit` to know whether a page follows.
 */
export function searchStatement(
  source: SearchSource,
  filters: SearchFilters,
  limit: number,
  after?: SearchCursor,
): SearchStatement {
  const params = [...source.params];
  const bind = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const { alias: a } = source;
  const text = textQueryOf(filters.q);
  const facets = facetsOf(filters);
  const conditions = [source.where];
  if (facets.length > 0) {
    conditions.push(`${a}.${source.facets} @> ${bind(facets)}::text[]`);
  }
  let rank = '0::real';
  if (text) {
    const query = `to_tsquery('english', ${bind(text)})`;
    conditions.push(`${a}.${source.document} @@ ${query}`);
    rank = `ts_rank('${RANK_WEIGHTS}', ${a}.${source.document}, ${query}, 0)`;
  }
  const page = after
    ? `WHERE (-ranked.rank, ranked.${source.name}, ranked.${source.id}) > (-${bind(after.rank)}::real, ${bind(after.name)}::text, ${bind(after.id)}::uuid)`
    : '';
  return {
    sql: `SELECT * FROM (
            SELECT ${source.columns}, ${rank} AS rank FROM ${source.table} ${a}
             WHERE ${conditions.map((c) => `(${c})`).join(' AND ')}) ranked
           ${page}
           ORDER BY ranked.rank DESC, ranked.${source.name}, ranked.${source.id}
           LIMIT ${bind(limit + 1)}`,
    params,
  };
}

/** One page of a search: `limit` rows with their `rank`, and where the next page starts. */
export interface SearchPage {
  rows: Row[];
  next?: SearchCursor;
}

/**
 * The one way a search runs (DS9, DS14): discovery's entries and the marketplace's listings alike.
 * With `q`, DS13: the planner prices a broad OR match as cheap per row and scans the whole table;
 * the GIN index was two to four times faster at 10,000 entries (BENCHMARKS.md).
 */
export async function runSearch(
  tx: Tx,
  source: SearchSource,
  filters: SearchFilters,
  limit: number,
  after?: SearchCursor,
): Promise<SearchPage> {
  const { sql, params } = searchStatement(source, filters, limit, after);
  if (textQueryOf(filters.q) !== undefined) {
    await tx.query('SET LOCAL enable_seqscan = off');
  }
  const found: Row[] = await tx.query(sql, params);
  const rows = found.slice(0, limit);
  const last = rows[rows.length - 1];
  return {
    rows,
    ...(found.length > limit && last
      ? {
          next: {
            rank: Number(last.rank),
            name: String(last[source.name]),
            id: String(last[source.id]),
          },
        }
      : {}),
  };
}
