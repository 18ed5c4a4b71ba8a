const B64 = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') {
  B64[ch.charCodeAt(0)] = 1;
}
const isB64 = (c: number): boolean => c < 128 && B64[c] === 1;
const touches = (c: number): boolean => isB64(c) || c === 61 || c === 95 || c === 45;

const MIN = 40;
const MAX = 4096;

/** GR28: base64 blobs (40–4096, padding) by every 40th character: a blob holds one of them. */
export function base64Blobs(text: string): [number, number][] {
  const out: [number, number][] = [];
  let i = MIN - 1;
  while (i < text.length) {
    if (!isB64(text.charCodeAt(i))) {
      i += MIN;
      continue;
    }
    let start = i;
    while (start > 0 && isB64(text.charCodeAt(start - 1))) {
      start -= 1;
    }
    let end = i + 1;
    while (end < text.length && isB64(text.charCodeAt(end))) {
      end += 1;
    }
    let padded = end;
    while (padded < text.length && padded - end < 2 && text.charCodeAt(padded) === 61) {
      padded += 1;
    }
    const length = end - start;
    const clearBefore = start === 0 || !touches(text.charCodeAt(start - 1));
    const clearAfter = padded === text.length || !touches(text.charCodeAt(padded));
    if (length >= MIN && length <= MAX && clearBefore && clearAfter) {
      out.push([start, padded]);
    }
    i = end + MIN;
  }
  return out;
}
