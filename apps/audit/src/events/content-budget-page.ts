/**
 * What one owner-query answer may carry in captured content: NATS refuses a message over 1 MiB,
 * so a page ends early when its content adds up, and a hop whose content alone is over this
 * travels as a digest-only hop (a replay counts it unreplayable rather than guess, G10).
 */
export const MAX_PAGE_CONTENT_CHARS = 600_000;

interface PagedHop {
  id: string;
  occurredAt: string;
  content?: string;
}

/** The hops of a page within the content budget, and the cursor after them when more may follow. */
export function contentBudgetPage<T extends PagedHop>(
  rows: T[],
  limit: number,
): { hops: T[]; next?: { afterAt: string; afterId: string } } {
  const hops = withinBudget(rows);
  const last = hops.at(-1);
  const isFull = hops.length < rows.length || rows.length === limit;
  return {
    hops,
    ...(isFull && last ? { next: { afterAt: last.occurredAt, afterId: last.id } } : {}),
  };
}

/** The first hops whose content fits the budget; a hop too big alone keeps only its digest. */
function withinBudget<T extends PagedHop>(rows: T[]): T[] {
  const kept: T[] = [];
  let chars = 0;
  for (const hop of rows) {
    const size = hop.content?.length ?? 0;
    if (size > MAX_PAGE_CONTENT_CHARS) {
      const { content: _dropped, ...digestOnly } = hop;
      kept.push(digestOnly as T);
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
