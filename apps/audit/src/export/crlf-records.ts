import { Transform, TransformCallback } from 'node:stream';

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** PostgreSQL's CSV ends records with LF; RFC 4180 asks for CRLF (A7). */
export class CrlfRecords extends Transform {
  private isQuoted = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const ends = this.recordEnds(chunk);
    if (ends.length === 0) {
      done(null, chunk);
      return;
    }
    const out = Buffer.allocUnsafe(chunk.length + ends.length);
    let from = 0;
    let to = 0;
    for (const end of ends) {
      to += chunk.copy(out, to, from, end);
      out[to++] = CR;
      out[to++] = LF;
      from = end + 1;
    }
    chunk.copy(out, to, from);
    done(null, out);
  }

  /** Offsets of the LFs that end a record, found with indexOf rather than byte by byte. */
  private recordEnds(chunk: Buffer): number[] {
    const ends: number[] = [];
    let quote = chunk.indexOf(QUOTE);
    let lf = chunk.indexOf(LF);
    while (lf !== -1) {
      if (quote !== -1 && quote < lf) {
        this.isQuoted = !this.isQuoted;
        quote = chunk.indexOf(QUOTE, quote + 1);
      } else {
        if (!this.isQuoted) {
          ends.push(lf);
        }
        lf = chunk.indexOf(LF, lf + 1);
      }
    }
    // Quotes after the last LF still open or close a cell that goes on in the next chunk.
    for (; quote !== -1; quote = chunk.indexOf(QUOTE, quote + 1)) {
      this.isQuoted = !this.isQuoted;
    }
    return ends;
  }
}
