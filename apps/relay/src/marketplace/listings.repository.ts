import { Injectable } from '@nestjs/common';
import { Row, Tx, iso, str } from '@agp/database';

import {
  ListingChange,
  ListingKind,
  ListingSearch,
  ListingStatus,
  ListingTerms,
  NewListing,
  RequiredPolicy,
  StoredListing,
} from './marketplace.types';

const S = 'relay';

const SELECT = `SELECT l.*, t.slug AS publisher_slug FROM ${S}.marketplace_listings l
  LEFT JOIN ${S}.tenants t ON t.tenant_id = l.tenant_id`;

/**
 * MK10: the search vector is the listing's name (A), its summary and categories (B) and the text
 * of its card or `server.json` (C), English stemming; `simple` beside it keeps ids and tool names.
 */
const SEARCH_VECTOR = `
  setweight(to_tsvector('english', $1::text), 'A') ||
  setweight(to_tsvector('simple', $1::text), 'A') ||
  setweight(to_tsvector('english', $2::text), 'B') ||
  setweight(to_tsvector('english', $3::text), 'C') ||
  setweight(to_tsvector('simple', $3::text), 'C')`;

/** Listings are the publisher's rows; browsing reads across tenants in the system scope (MK7). */
@Injectable()
export class ListingsRepository {
  async insert(tx: Tx, listing: NewListing, searchText: string): Promise<StoredListing> {
    await tx.query(
      `INSERT INTO ${S}.marketplace_listings
         (id, tenant_id, kind, target_id, name, summary, categories, terms, required_policies,
          document, search)
       VALUES ($4, $5, $6, $7, $1, $8, $9, $10, $11, $12, ${SEARCH_VECTOR})`,
      [
        listing.name,
        `${listing.summary} ${listing.categories.join(' ')}`,
        searchText,
        listing.id,
        listing.tenantId,
        listing.kind,
        listing.targetId,
        listing.summary,
        listing.categories,
        JSON.stringify(listing.terms),
        JSON.stringify(listing.requiredPolicies),
        JSON.stringify(listing.document),
      ],
    );
    return (await this.find(tx, listing.id))!;
  }

  async update(
    tx: Tx,
    current: StoredListing,
    change: ListingChange,
    searchText: string,
  ): Promise<StoredListing> {
    const next = { ...current, ...change };
    await tx.query(
      `UPDATE ${S}.marketplace_listings
          SET name = $1, summary = $4, categories = $5, terms = $6, required_policies = $7,
              document = $8, search = ${SEARCH_VECTOR}, updated_at = now()
        WHERE id = $9`,
      [
        next.name,
        `${next.summary} ${next.categories.join(' ')}`,
        searchText,
        next.summary,
        next.categories,
        JSON.stringify(next.terms),
        JSON.stringify(next.requiredPolicies),
        JSON.stringify(next.document),
        current.id,
      ],
    );
    return (await this.find(tx, current.id))!;
  }

  async unpublish(tx: Tx, id: string): Promise<void> {
    await tx.query(
      `UPDATE ${S}.marketplace_listings SET status = 'UNPUBLISHED', unpublished_at = now(),
         updated_at = now() WHERE id = $1`,
      [id],
    );
  }

  async find(tx: Tx, id: string, lock = false): Promise<StoredListing | undefined> {
    const rows: Row[] = await tx.query(
      `${SELECT} WHERE l.id = $1${lock ? ' FOR UPDATE OF l' : ''}`,
      [id],
    );
    return rows[0] ? toListing(rows[0]) : undefined;
  }

  /** The publisher's listing of one target that still takes installs, if any. */
  async findPublished(
    tx: Tx,
    tenantId: string,
    kind: ListingKind,
    targetId: string,
  ): Promise<StoredListing | undefined> {
    const rows: Row[] = await tx.query(
      `${SELECT} WHERE l.tenant_id = $1 AND l.kind = $2 AND l.target_id = $3
         AND l.status = 'PUBLISHED'`,
      [tenantId, kind, targetId],
    );
    return rows[0] ? toListing(rows[0]) : undefined;
  }

  /**
   * MK10: `q` is `websearch_to_tsquery` ranked by `ts_rank` (name over summary over card); no `q`
   * is newest first. One page plus one row, so the caller knows whether another follows.
   */
  async search(tx: Tx, search: ListingSearch): Promise<StoredListing[]> {
    const params: unknown[] = [search.tenantId];
    const where = [
      search.mine ? 'l.tenant_id = $1' : `(l.status = 'PUBLISHED' OR l.tenant_id = $1)`,
    ];
    if (search.kind) {
      params.push(search.kind);
      where.push(`l.kind = $${params.length}`);
    }
    if (search.category) {
      params.push(search.category);
      where.push(`$${params.length} = ANY (l.categories)`);
    }
    let ranked = '';
    if (search.q) {
      params.push(search.q);
      const q = `$${params.length}`;
      where.push(
        `l.search @@ (websearch_to_tsquery('english', ${q}) || websearch_to_tsquery('simple', ${q}))`,
      );
      ranked = `ts_rank(l.search, websearch_to_tsquery('english', ${q}) || websearch_to_tsquery('simple', ${q})) DESC, `;
    }
    params.push(search.limit + 1, search.offset);
    const rows: Row[] = await tx.query(
      `${SELECT} WHERE ${where.join(' AND ')}
        ORDER BY ${ranked}l.created_at DESC, l.id
        LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(toListing);
  }
}

function toListing(row: Row): StoredListing {
  return {
    id: String(row.id),
    tenantId: String(row.tenant_id),
    publisherSlug: str(row.publisher_slug),
    kind: String(row.kind) as ListingKind,
    targetId: String(row.target_id),
    name: String(row.name),
    summary: String(row.summary),
    categories: (row.categories as string[] | null) ?? [],
    terms: row.terms as ListingTerms,
    requiredPolicies: (row.required_policies as RequiredPolicy[] | null) ?? [],
    document: row.document as Record<string, unknown>,
    status: String(row.status) as ListingStatus,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}
