import { Transform, TransformCallback } from 'node:stream';

const QUOTE = 0x22;
const LF = 0x0a;
const CRLF = Buffer.from('\r\n');

/**
 * PostgreSQL's CSV ends records with LF; RFC 4180 asks for CRLF. This turns each LF outside a
 * quoted field into CRLF and leaves line breaks inside quoted cells alone. The quote state carries
 * across chunks (a doubled quote toggles twice, so it needs no special case).
 */
export class CrlfRecords extends Transform {
  private isQuoted = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const parts: Buffer[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i += 1) {
      const byte = chunk[i];
      if (byte === QUOTE) {
        this.isQuoted = !this.isQuoted;
      } else if (byte === LF && !this.isQuoted) {
        parts.push(chunk.subarray(start, i), CRLF);
        start = i + 1;
      }
    }
    parts.push(chunk.subarray(start));
    done(null, Buffer.concat(parts));
  }
}
