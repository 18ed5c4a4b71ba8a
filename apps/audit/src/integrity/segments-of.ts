import { CopyColumn } from './chain-segment';
import { copyTextFields } from './copy-text';

export interface RowSegment {
  /** Whole lines of COPY text; after the first segment, the first line repeats the previous segment's last. */
  rows: Uint8Array;
  firstSeq: number;
  lastSeq: number;
}

const NEWLINE = 10;

/** Cuts a chain's COPY text into segments of about `size` bytes of whole lines (A14). */
export async function* segmentsOf(
  rows: AsyncIterable<Buffer>,
  size: number,
  columns: CopyColumn[],
): AsyncGenerator<RowSegment> {
  const seqIndex = columns.findIndex((c) => c.name === 'seq');
  let previousLastLine: Uint8Array = new Uint8Array(0);
  let chunks: Buffer[] = [];
  let length = 0;
  const cut = (isEnd: boolean): RowSegment | undefined => {
    const joined = Buffer.alloc(previousLastLine.length + length);
    joined.set(previousLastLine, 0);
    let offset = previousLastLine.length;
    for (const chunk of chunks) {
      joined.set(chunk, offset);
      offset += chunk.length;
    }
    const end = isEnd ? joined.length : joined.lastIndexOf(NEWLINE) + 1;
    if (end <= previousLastLine.length) {
      return undefined;
    }
    const rest = joined.subarray(end);
    chunks = rest.length > 0 ? [Buffer.from(rest)] : [];
    length = rest.length;
    const lastLineStart = joined.lastIndexOf(NEWLINE, end - 2) + 1;
    const firstLineEnd = joined.indexOf(NEWLINE, previousLastLine.length);
    const seqOf = (from: number, to: number): number =>
      Number(copyTextFields(joined.toString('utf8', from, to))[seqIndex]);
    const segment = {
      rows: joined.subarray(0, end),
      firstSeq: seqOf(previousLastLine.length, firstLineEnd),
      lastSeq: seqOf(lastLineStart, end - 1),
    };
    previousLastLine = Buffer.from(joined.subarray(lastLineStart, end));
    return segment;
  };
  for await (const chunk of rows) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= size) {
      const segment = cut(false);
      if (segment) {
        yield segment;
      }
    }
  }
  const last = length > 0 ? cut(true) : undefined;
  if (last) {
    yield last;
  }
}
