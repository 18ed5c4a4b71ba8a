// The frontend messages the shared PGlite session reads before it runs anything
// (https://www.postgresql.org/docs/current/protocol-message-formats.html).
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const TERMINATE = 0x58; // 'X'
const READY_FOR_QUERY = 0x5a; // 'Z'

/** What a client's inbox holds at its front, as far as it is whole. */
export type Front =
  | { kind: 'none' }
  /** SSLRequest or GSSENCRequest: answered 'N' here, PGlite never sees it. */
  | { kind: 'encryption-request'; length: number }
  /** A CancelRequest (PGlite has no backend to signal) or a length no message has: closed. */
  | { kind: 'close' }
  | { kind: 'startup'; length: number }
  /** Every whole typed message up to a Terminate (which `terminate` tells was there). */
  | { kind: 'messages'; length: number; terminate: boolean };

/** Reads the front of `inbox`; before the startup packet the messages carry no type byte. */
export function frontOf(inbox: Buffer, started: boolean): Front {
  if (!started) {
    if (inbox.length >= 4 && inbox.readInt32BE(0) < 8) {
      return { kind: 'close' };
    }
    if (inbox.length < 8 || inbox.length < inbox.readInt32BE(0)) {
      return { kind: 'none' };
    }
    const length = inbox.readInt32BE(0);
    const code = inbox.readInt32BE(4);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      return { kind: 'encryption-request', length };
    }
    return code === CANCEL_REQUEST ? { kind: 'close' } : { kind: 'startup', length };
  }
  let offset = 0;
  while (offset + 5 <= inbox.length) {
    if (inbox[offset] === TERMINATE) {
      return { kind: 'messages', length: offset, terminate: true };
    }
    const length = inbox.readInt32BE(offset + 1);
    if (length < 4) {
      return { kind: 'close' };
    }
    const end = offset + 1 + length;
    if (end > inbox.length) {
      break;
    }
    offset = end;
  }
  return offset === 0 ? { kind: 'none' } : { kind: 'messages', length: offset, terminate: false };
}

/** True when the backend's last message in `output` is ReadyForQuery: its cycle is over. */
export function endsWithReadyForQuery(output: Buffer): boolean {
  let offset = 0;
  let last = -1;
  while (offset + 5 <= output.length) {
    last = offset;
    offset += 1 + Math.max(4, output.readInt32BE(offset + 1));
  }
  return last >= 0 && offset === output.length && output[last] === READY_FOR_QUERY;
}
