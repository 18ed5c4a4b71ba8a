import { types } from 'pg';

import { EventRow, eventOfRow } from '../events/audit-event.row';
import { ChainWalk, ChainWalkState } from './chain-walk';
import { copyTextFields } from './copy-text';

/** A column of the chain's COPY, as the query protocol would describe it. */
export interface CopyColumn {
  name: string;
  typeId: number;
}

/** `start` is given to the chain's first segment (A14). */
export interface SegmentJob {
  columns: CopyColumn[];
  rows: Uint8Array;
  start?: { seq: number; hash: Uint8Array };
  watched: number[];
}

const NEWLINE = 10;

/** Walks one segment with the same `ChainWalk` (and so the same hash) as a single walk would. */
export function walkSegment(job: SegmentJob): ChainWalkState {
  const decode = rowDecoder(job.columns);
  const lines = Buffer.from(job.rows.buffer, job.rows.byteOffset, job.rows.byteLength);
  let offset = 0;
  const nextRow = (): EventRow | undefined => {
    const end = lines.indexOf(NEWLINE, offset);
    if (end === -1) {
      return undefined;
    }
    const row = decode(lines.toString('utf8', offset, end));
    offset = end + 1;
    return row;
  };
  let walk: ChainWalk;
  if (job.start) {
    walk = new ChainWalk(job.start.seq, Buffer.from(job.start.hash), new Set(job.watched));
  } else {
    const previous = nextRow() as EventRow;
    walk = new ChainWalk(Number(previous.seq), previous.hash, new Set(job.watched));
  }
  for (let row = nextRow(); row && walk.accept(eventOfRow(row)); row = nextRow()) {
    // accept() does the work; the walk stops at its first break.
  }
  return walk.state();
}

/** What pg does with text, and with every type it leaves as text (uuid …): nothing to call. */
const AS_TEXT: unknown = types.getTypeParser(types.builtins.TEXT, 'text');

/** COPY text → the row the query protocol would give: each field through pg's own type parser. */
function rowDecoder(columns: CopyColumn[]): (line: string) => EventRow {
  const names = columns.map((c) => c.name);
  const parsers = columns.map((c) => {
    const parser = types.getTypeParser(c.typeId, 'text') as (text: string) => unknown;
    return parser === AS_TEXT ? undefined : parser;
  });
  return (line) => {
    const fields = copyTextFields(line);
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i += 1) {
      const field = fields[i] ?? null;
      const parser = parsers[i];
      row[names[i]] = field === null || !parser ? field : parser(field);
    }
    return row as unknown as EventRow;
  };
}
