import { Finding, MAX_SCAN_CHARS, before, matchesAt, sortAndMerge } from '../finding';
import { Scan } from '../scan';
import { base64Blobs } from './base64-runs';
import { CUES, CUE_STARTS, Cue } from './cues';

const DISCUSSION =
  /\b(?:e\.g\.|such as|for example|example|phrases?|like|called|known as|detect\w*|attacks?|attackers?|injections?|classifier|filter|strings?|patterns?|flag\w*|blocks?|says?|said|wrote|quote|meme|article|paper|research)\b/;
const QUOTES = `"'“”‘’\`«»`;
const isQuote = (ch: string): boolean => ch !== '' && QUOTES.includes(ch);
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

function cueFindings(text: string, cues: readonly Cue[]): (Finding & { category: string })[] {
  const found: (Finding & { category: string })[] = [];
  const scan = new Scan(text);
  cues.forEach((c, index) => {
    c.regex.lastIndex = 0;
    const matches =
      c.starts.length > 0
        ? matchesAt(c.regex, text, CUE_STARTS.startsOf(index)(scan))
        : text.matchAll(c.regex);
    for (const m of matches) {
      const end = m.index + m[0].length;
      found.push({
        type: 'PROMPT_INJECTION',
        category: c.category,
        start: m.index,
        end,
        score: c.score * contextFactor(text, m.index, end),
      });
    }
  });
  return found;
}

/** Base64 blobs that decode to an instruction (a bounded number of them per call). */
function encodedFindings(text: string): (Finding & { category: string })[] {
  const found: (Finding & { category: string })[] = [];
  for (const [start, end] of base64Blobs(text)) {
    if (found.length >= MAX_DECODED_BLOBS) {
      break;
    }
    const decoded = Buffer.from(text.slice(start, end), 'base64').toString('latin1');
    if (PLAIN_TEXT.test(decoded) && cueFindings(decoded, CUES).some((f) => f.score >= 0.6)) {
      found.push({ type: 'PROMPT_INJECTION', category: 'ENCODED', start, end, score: 0.9 });
    }
  }
  TAG_CHARACTERS.lastIndex = 0;
  const tags = text.includes('\uDB40') ? text.matchAll(TAG_CHARACTERS) : [];
  for (const m of tags) {
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
  const found = [...cueFindings(input, CUES), ...encodedFindings(input)];
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
