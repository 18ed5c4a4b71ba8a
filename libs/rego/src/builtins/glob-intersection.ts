/** OPA delegates to github.com/yashtewari/glob-intersection (`gintersect.NonEmpty`). */

const CHAR = 0;
const DOT = 1;
const SET = 2;

const NONE = 0;
const PLUS = 1;
const STAR = 2;

interface Token {
  type: typeof CHAR | typeof DOT | typeof SET;
  flag: number;
  /** The code point of a character. */
  cp: number;
  /** The code points of a set. */
  cps: Set<number>;
}

const EMPTY = new Set<number>();

class GlobSyntaxError extends Error {}

/** Thrown for end of input while reading (not an error for the caller). */
const END = Symbol('end');

function invalid(input: number[], index: number, message: string): GlobSyntaxError {
  return new GlobSyntaxError(
    `input:${String.fromCodePoint(...input)}, pos:${index}, ${message}: the input provided is invalid`,
  );
}

interface Rune {
  next: number;
  cp: number;
  escaped: boolean;
}

function nextRune(index: number, input: number[]): Rune | typeof END {
  if (index >= input.length) {
    return END;
  }
  if (input[index] === 0x5c) {
    if (index < input.length - 1) {
      return { next: index + 2, cp: input[index + 1], escaped: true };
    }
    throw invalid(input, index, 'input ends with a \\ (escape) character');
  }
  return { next: index + 1, cp: input[index], escaped: false };
}

function flagOf(cp: number): number {
  return cp === 0x2b ? PLUS : cp === 0x2a ? STAR : NONE;
}

function nextSet(index: number, input: number[]): [number, Token] {
  const cps: number[] = [];
  let prev = 0;
  let prevExists = false;
  let at = index;
  for (let r = nextRune(at, input); r !== END; r = nextRune(at, input)) {
    at = r.next;
    if (r.escaped) {
      cps.push(r.cp);
      prev = r.cp;
      prevExists = true;
      continue;
    }
    if (r.cp === 0x2d) {
      if (!prevExists) {
        throw invalid(input, at, "range character '-' must be preceded by a Unicode character");
      }
      if (at >= input.length - 1) {
        throw invalid(input, at, "range character '-' must be followed by a Unicode character");
      }
      const to = nextRune(at, input);
      if (to === END) {
        throw invalid(input, at, "range character '-' must be followed by a Unicode character");
      }
      at = to.next;
      if (!to.escaped && (to.cp === 0x5d || to.cp === 0x2d)) {
        throw invalid(input, at, "range character '-' cannot be followed by a special symbol");
      }
      if (to.cp < prev) {
        throw invalid(
          input,
          at,
          `range is out of order: '${String.fromCodePoint(to.cp)}' comes before '${String.fromCodePoint(prev)}' in Unicode`,
        );
      }
      for (let x = prev; x <= to.cp; x++) {
        cps.push(x);
      }
      prevExists = false;
    } else if (r.cp === 0x5d) {
      return [at, { type: SET, flag: NONE, cp: 0, cps: new Set(cps) }];
    } else {
      cps.push(r.cp);
      prev = r.cp;
      prevExists = true;
    }
  }
  throw invalid(input, at, 'found [ without matching ]');
}

function nextToken(index: number, input: number[]): [number, Token] | typeof END {
  const r = nextRune(index, input);
  if (r === END) {
    return END;
  }
  let at = r.next;
  let token: Token;
  if (r.escaped) {
    token = { type: CHAR, flag: NONE, cp: r.cp, cps: EMPTY };
  } else if (r.cp === 0x2e) {
    token = { type: DOT, flag: NONE, cp: 0, cps: EMPTY };
  } else if (r.cp === 0x5d) {
    throw invalid(input, at, "set-close ']' with no preceding '['");
  } else if (r.cp === 0x5b) {
    [at, token] = nextSet(at, input);
  } else if (flagOf(r.cp) !== NONE) {
    throw invalid(input, at, `flag '${String.fromCodePoint(r.cp)}' must be preceded by a non-flag`);
  } else {
    token = { type: CHAR, flag: NONE, cp: r.cp, cps: EMPTY };
  }
  const f = nextRune(at, input);
  if (f !== END && !f.escaped && flagOf(f.cp) !== NONE) {
    token.flag = flagOf(f.cp);
    at = f.next;
  }
  return [at, token];
}

function equal(a: Token, b: Token): boolean {
  if (a.type !== b.type) {
    return false;
  }
  if (a.type === CHAR) {
    return a.cp === b.cp;
  }
  if (a.type === SET) {
    return a.cps.size === b.cps.size && [...a.cps].every((c) => b.cps.has(c));
  }
  return true;
}

/** Parses a glob; consecutive equal flagged tokens merge (`a*a+` is `a+`). */
export function parseGlob(text: string): Token[] {
  const input = Array.from(text, (c) => c.codePointAt(0) ?? 0);
  const tokens: Token[] = [];
  let at = 0;
  for (let t = nextToken(at, input); t !== END; t = nextToken(at, input)) {
    at = t[0];
    const token = t[1];
    const latest = tokens[tokens.length - 1];
    if (latest && token.flag !== NONE && latest.flag !== NONE && equal(token, latest)) {
      latest.flag = token.flag === PLUS || latest.flag === PLUS ? PLUS : STAR;
    } else {
      tokens.push(token);
    }
  }
  return tokens;
}

function match(a: Token, b: Token): boolean {
  const [t1, t2] = a.type <= b.type ? [a, b] : [b, a];
  if (t1.type === CHAR) {
    return t2.type === CHAR ? t1.cp === t2.cp : t2.type === DOT ? true : t2.cps.has(t1.cp);
  }
  if (t1.type === DOT) {
    return true;
  }
  for (const c of t1.cps) {
    if (t2.cps.has(c)) {
      return true;
    }
  }
  return false;
}

function intersectNormal(g1: Token[], g2: Token[]): boolean {
  let i = 0;
  let j = 0;
  for (; i < g1.length && j < g2.length; i++, j++) {
    if (g1[i].flag === NONE && g2[j].flag === NONE) {
      if (!match(g1[i], g2[j])) {
        return false;
      }
    } else {
      return intersectSpecial(g1.slice(i), g2.slice(j));
    }
  }
  return i === g1.length && j === g2.length;
}

function intersectSpecial(g1: Token[], g2: Token[]): boolean {
  if (g1[0].flag !== NONE) {
    return g1[0].flag === PLUS ? intersectPlus(g1, g2) : intersectStar(g1, g2);
  }
  return g2[0].flag === PLUS ? intersectPlus(g2, g1) : intersectStar(g2, g1);
}

function intersectPlus(plussed: Token[], other: Token[]): boolean {
  if (!match(plussed[0], other[0])) {
    return false;
  }
  if (intersectStar(plussed, other.slice(1))) {
    return true;
  }
  return other[0].flag !== NONE && intersectNormal(plussed.slice(1), other);
}

function intersectStar(starred: Token[], other: Token[]): boolean {
  const star = starred[0];
  const after = starred.length > 1 ? starred[1] : undefined;
  for (let i = 0; i < other.length; i++) {
    const t = other[i];
    if (after && match(t, after)) {
      if (intersectNormal(starred.slice(1), other.slice(i))) {
        return true;
      }
    }
    if (!match(t, star)) {
      return false;
    }
  }
  return after === undefined;
}

/** Trims equal unflagged prefixes and suffixes (keeping one of each); undefined when they differ. */
function trim(g1: Token[], g2: Token[]): [Token[], Token[]] | undefined {
  let l = 0;
  for (; l < g1.length && l < g2.length && g1[l].flag === NONE && g2[l].flag === NONE; l++) {
    if (!match(g1[l], g2[l])) {
      return undefined;
    }
  }
  if (l > 0) {
    l--;
  }
  let r1 = g1.length - 1;
  let r2 = g2.length - 1;
  for (
    ;
    r1 >= 0 && r1 >= l && r2 >= 0 && r2 >= l && g1[r1].flag === NONE && g2[r2].flag === NONE;
    r1--, r2--
  ) {
    if (!match(g1[r1], g2[r2])) {
      return undefined;
    }
  }
  if (r1 < g1.length - 1) {
    r1++;
    r2++;
  }
  return [g1.slice(l, r1 + 1), g2.slice(l, r2 + 1)];
}

/** True when the intersection of the two globs matches a non-empty set of non-empty strings. */
export function globsIntersect(lhs: string, rhs: string): boolean {
  const trimmed = trim(parseGlob(lhs), parseGlob(rhs));
  return trimmed !== undefined && intersectNormal(trimmed[0], trimmed[1]);
}

export { GlobSyntaxError };
