import { Injectable } from '@nestjs/common';
import { Row, Tx, iso, str } from '@agp/database';

import { SearchCursor } from '../discovery/discovery.types';
import { runSearch } from '../discovery/search-statement';

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

/** Listings are the publisher's rows; browsing reads across tenants in the system scope (MK7). */
@Injectable()
export class ListingsRepository {
  /** The index columns (`search`, `facets`) are the trigger's (MK29). */
  async insert(tx: Tx, listing: NewListing): Promise<StoredListing> {
    await tx.query(
      `INSERT INTO ${S}.marketplace_listings
         (id, tenant_id, kind, target_id, name, summary, categories, terms, required_policies,
          document, search)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, ''::tsvector)`,
      [
        listing.id,
        listing.tenantId,
        listing.kind,
        listing.targetId,
        listing.name,
        listing.summary,
        listing.categories,
        JSON.stringify(listing.terms),
        JSON.stringify(listing.requiredPolicies),
        JSON.stringify(listing.document),
      ],
    );
    return (await this.find(tx, listing.id))!;
  }

  async update(tx: Tx, current: StoredListing, change: ListingChange): Promise<StoredListing> {
    const next = { ...current, ...change };
    await tx.query(
      `UPDATE ${S}.marketplace_listings
          SET name = $1, summary = $2, categories = $3, terms = $4, required_policies = $5,
              document = $6, updated_at = now()
        WHERE id = $7`,
      [
        next.name,
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
   * MK29: discovery's search (DS9) over the listings: the asking tenant's own and every published
   * one (or only its own: `mine`), ranked and filtered as discovery ranks and filters, keyset paged.
   */
  async search(
    tx: Tx,
    search: ListingSearch,
  ): Promise<{ rows: StoredListing[]; next?: SearchCursor }> {
    const params: unknown[] = [search.tenantId];
    const where = [
      search.mine ? 'l.tenant_id = $1' : `(l.status = 'PUBLISHED' OR l.tenant_id = $1)`,
    ];
    if (search.kind) {
      params.push(search.kind);
      where.push(`l.kind = $${params.length}`);
    }
    const { rows, next } = await runSearch(
      tx,
      {
        table: `${S}.marketplace_listings`,
        alias: 'l',
        id: 'id',
        name: 'name',
        document: 'search',
        facets: 'facets',
        columns: `l.*, (SELECT t.slug FROM ${S}.tenants t WHERE t.tenant_id = l.tenant_id) AS publisher_slug`,
        where: where.join(' AND '),
        params,
      },
      search.filters,
      search.limit,
      search.after,
    );
    return { rows: rows.map(toListing), ...(next ? { next } : {}) };
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
