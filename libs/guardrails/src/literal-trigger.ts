import { Scan, Starts, literalTrie } from './scan';

// GR25: one case-insensitive scan for the beginnings of several rules at once.

interface Beginning {
  literal: string;
  rules: number[];
  /** A word: the rule's `\b` (or look-behind on `\w`) needs a non-word character before it. */
  word: boolean;
}

const WORD = /\w/;
const isWordCode = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** Lower case as the `i` flag compares: ASCII letters, and other letters among themselves. */
function lowerCode(c: number): number {
  if (c < 128) {
    return c >= 65 && c <= 90 ? c + 32 : c;
  }
  return String.fromCharCode(c).toLowerCase().charCodeAt(0);
}

function startsAt(text: string, at: number, literal: string): boolean {
  for (let k = 0; k < literal.length; k += 1) {
    if (lowerCode(text.charCodeAt(at + k)) !== literal.charCodeAt(k)) {
      return false;
    }
  }
  return true;
}

function allDense(starts: readonly (number[] | null)[], rules: readonly number[]): boolean {
  for (const rule of rules) {
    if (starts[rule] !== null) {
      return false;
    }
  }
  return true;
}

export class LiteralTrigger {
  private readonly byFirstChar = new Map<number, Beginning[]>();
  private readonly trigger: RegExp;

  /** `sets[i]`: lower-case beginnings one of which starts every match of rule i. */
  constructor(private readonly sets: readonly (readonly string[])[]) {
    const byLiteral = new Map<string, Beginning>();
    sets.forEach((literals, rule) => {
      for (const literal of literals) {
        const b = byLiteral.get(literal) ?? { literal, rules: [], word: WORD.test(literal[0]) };
        b.rules.push(rule);
        byLiteral.set(literal, b);
      }
    });
    for (const b of byLiteral.values()) {
      const first = b.literal.charCodeAt(0);
      this.byFirstChar.set(first, [...(this.byFirstChar.get(first) ?? []), b]);
    }
    const all = [...byLiteral.values()];
    const words = literalTrie(all.filter((b) => b.word).map((b) => b.literal));
    const signs = literalTrie(all.filter((b) => !b.word).map((b) => b.literal));
    this.trigger = new RegExp([words && `\\b${words}`, signs].filter(Boolean).join('|'), 'gi');
  }

  startsOf(rule: number): Starts {
    return (scan) => scan.positions(this, (s) => this.find(s))?.[rule] ?? null;
  }

  private find(scan: Scan): (number[] | null)[] {
    const text = scan.text;
    const most = scan.denseStarts;
    const starts: (number[] | null)[] = this.sets.map(() => []);
    let open = this.sets.filter((literals) => literals.length > 0).length;
    this.trigger.lastIndex = 0;
    for (let m = this.trigger.exec(text); m && open > 0; m = this.trigger.exec(text)) {
      const at = m.index;
      const afterWord = at > 0 && isWordCode(text.charCodeAt(at - 1));
      for (const b of this.byFirstChar.get(lowerCode(text.charCodeAt(at))) ?? []) {
        if ((b.word && afterWord) || allDense(starts, b.rules) || !startsAt(text, at, b.literal)) {
          continue;
        }
        for (const rule of b.rules) {
          const list = starts[rule];
          if (list === null || list[list.length - 1] === at) {
            continue;
          }
          list.push(at);
          if (list.length > most) {
            starts[rule] = null;
            open -= 1;
          }
        }
      }
      this.trigger.lastIndex = at + 1;
    }
    return starts;
  }
}
