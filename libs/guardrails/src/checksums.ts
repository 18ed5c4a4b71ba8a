/** Luhn (ISO/IEC 7812): payment cards, Canadian SIN. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) {
        d -= 9;
      }
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** ISO 7064 MOD 97-10 over an alphanumeric string (IBAN after rearrangement). */
export function mod97(text: string): number {
  let rest = 0;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? code - 55 : code - 48;
    rest = value >= 10 ? (rest * 100 + value) % 97 : (rest * 10 + value) % 97;
  }
  return rest;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) {
      c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i += 1) {
    crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function base62(n: number, width: number): string {
  let out = '';
  let rest = n;
  while (rest > 0) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** Verhoeff check (India's Aadhaar). */
export function verhoeffValid(digits: string): boolean {
  let c = 0;
  const n = digits.length;
  for (let i = 0; i < n; i += 1) {
    c = VERHOEFF_D[c][VERHOEFF_P[i % 8][digits.charCodeAt(n - 1 - i) - 48]];
  }
  return c === 0;
}

const asciiCounts = new Uint32Array(128);
const asciiOrder = new Uint8Array(128);

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  // ASCII counted in a table, summed in first-seen order: the same number the map gives.
  let kinds = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 128) {
      for (let k = 0; k < kinds; k += 1) {
        asciiCounts[asciiOrder[k]] = 0;
      }
      return entropyOfAnyText(text);
    }
    if (asciiCounts[c] === 0) {
      asciiOrder[kinds] = c;
      kinds += 1;
    }
    asciiCounts[c] += 1;
  }
  let bits = 0;
  for (let k = 0; k < kinds; k += 1) {
    const p = asciiCounts[asciiOrder[k]] / text.length;
    asciiCounts[asciiOrder[k]] = 0;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function entropyOfAnyText(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) {
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
