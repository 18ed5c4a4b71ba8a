import { SearchCursor, SearchFilters } from './discovery.types';

/** Past this many words a query says nothing more; the rest are dropped (DS3). */
export const MAX_QUERY_WORDS = 16;
/** Words this long or longer also match as prefixes (`transl` finds `translation`). */
const PREFIX_FROM = 4;

/**
 * DS3: free text becomes an OR of its words for `to_tsquery('english', …)`, so a paraphrase that
 * shares only some words still matches and the rank, not the match, orders the answer. Only
 * letters and digits reach the parser: nothing in `q` can be tsquery syntax.
 */
export function textQueryOf(q: string | undefined): string | undefined {
  const words = (q ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .slice(0, MAX_QUERY_WORDS);
  if (words.length === 0) {
    return undefined;
  }
  return [...new Set(words)]
    .map((word) => (word.length >= PREFIX_FROM ? `${word}:*` : word))
    .join(' | ');
}

/** The facet a filter must find among an entry's, as the index triggers write them (DS5). */
const FACET_OF: Readonly<Record<Exclude<keyof SearchFilters, 'q'>, string>> = {
  skill: 'skill',
  tag: 'tag',
  capability: 'capability',
  inputMode: 'input',
  outputMode: 'output',
  tool: 'tool',
  category: 'category',
};

export function facetsOf(filters: SearchFilters): string[] {
  return (Object.keys(FACET_OF) as (keyof typeof FACET_OF)[])
    .filter((field) => typeof filters[field] === 'string' && filters[field].trim() !== '')
    .map((field) => `${FACET_OF[field]}:${filters[field]!.trim().toLowerCase()}`);
}

/** Opaque to callers; a cursor that does not decode is a 400 on `cursor` (D12). */
export function encodeCursor(cursor: SearchCursor): string {
  return Buffer.from(JSON.stringify([cursor.rank, cursor.name, cursor.id])).toString('base64url');
}

export function decodeCursor(value: string): SearchCursor | undefined {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (
      Array.isArray(decoded) &&
      decoded.length === 3 &&
      typeof decoded[0] === 'number' &&
      Number.isFinite(decoded[0]) &&
      typeof decoded[1] === 'string' &&
      typeof decoded[2] === 'string' &&
      /^[0-9a-f-]{36}$/i.test(decoded[2])
    ) {
      return { rank: decoded[0], name: decoded[1], id: decoded[2] };
    }
  } catch {
    // Not JSON: not one of ours.
  }
  return undefined;
}
