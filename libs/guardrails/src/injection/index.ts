import { Finding, MAX_SCAN_CHARS, before, sortAndMerge } from '../finding';
import { CUES, Cue } from './cues';

const DISCUSSION =
  /\b(?:e\.g\.|such as|for example|example|phrases?|like|called|known as|detect\w*|attacks?|attackers?|injections?|classifier|filter|strings?|patterns?|flag\w*|blocks?|says?|said|wrote|quote|meme|article|paper|research)\b/;
const QUOTES = `"'“”‘’\`«»`;
const isQuote = (ch: string): boolean => ch !== '' && QUOTES.includes(ch);
const BASE64_BLOB = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{40,4096}={0,2}(?![A-Za-z0-9+/=_-])/g;
const TAG_CHARACTERS = /[\u{E0000}-\u{E007F}]{4,}/gu;
const MAX_DECODED_BLOBS = 8;
const PLAIN_TEXT = /^[\t\n\r\x20-\x7e]*$/;

/**
 * GR7: a phrase quoted in text that discusses it ("attacks such as 'ignore previous instructions'")
 * is talk about injection, not injection; it keeps a score below the ready-made policy's threshold.
 */
function contextFactor(text: string, start: number, end: number): number {
  const quoted = isQuote(text.charAt(start - 1)) || isQuote(text.charAt(end));
  const discussed = DISCUSSION.test(before(text, start, 80));
  if (quoted && discussed) {
    return 0.45;
  }
  if (discussed) {
    return 0.75;
  }
  return quoted ? 0.85 : 1;
}

function cueFindings(
  text: string,
  offset: number,
  cues: readonly Cue[],
): (Finding & { category: string })[] {
  const found: (Finding & { category: string })[] = [];
  const lower = text.toLowerCase();
  for (const c of cues) {
    if (!c.keys.some((k) => lower.includes(k))) {
      continue;
    }
    c.regex.lastIndex = 0;
    for (const m of text.matchAll(c.regex)) {
      const end = m.index + m[0].length;
      found.push({
        type: 'PROMPT_INJECTION',
        category: c.category,
        start: offset + m.index,
        end: offset + end,
        score: c.score * contextFactor(text, m.index, end),
      });
    }
  }
  return found;
}

/** Base64 blobs that decode to an instruction (a bounded number of them per call). */
function encodedFindings(text: string): (Finding & { category: string })[] {
  const found: (Finding & { category: string })[] = [];
  BASE64_BLOB.lastIndex = 0;
  for (const m of text.matchAll(BASE64_BLOB)) {
    if (found.length >= MAX_DECODED_BLOBS) {
      break;
    }
    const decoded = Buffer.from(m[0], 'base64').toString('latin1');
    if (PLAIN_TEXT.test(decoded) && cueFindings(decoded, 0, CUES).some((f) => f.score >= 0.6)) {
      found.push({
        type: 'PROMPT_INJECTION',
        category: 'ENCODED',
        start: m.index,
        end: m.index + m[0].length,
        score: 0.9,
      });
    }
  }
  TAG_CHARACTERS.lastIndex = 0;
  for (const m of text.matchAll(TAG_CHARACTERS)) {
    found.push({
      type: 'PROMPT_INJECTION',
      category: 'ENCODED',
      start: m.index,
      end: m.index + m[0].length,
      score: 0.9,
    });
  }
  return found;
}

/** D50 `agp.detect.prompt_injection`: instructions aimed at the model, sorted by start. */
export function detectPromptInjection(text: string): Finding[] {
  const input = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const found = [...cueFindings(input, 0, CUES), ...encodedFindings(input)];
  // Cues of two kinds in one text (an override and an exfiltration) corroborate each other.
  const categories = new Set(found.filter((f) => f.score >= 0.5).map((f) => f.category));
  const boost = categories.size >= 2 ? 0.1 : 0;
  return sortAndMerge(
    found.map(({ type, start, end, score }) => ({
      type,
      start,
      end,
      score: Math.round(Math.min(1, score + boost) * 100) / 100,
    })),
  );
}
