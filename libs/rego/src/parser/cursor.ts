import { Location } from '../ast/ast';
import { compileError } from '../errors';
import { Token } from '../lexer/token';

/** Token cursor shared by the parser functions. */
export class Cursor {
  pos = 0;
  private gen = 0;
  /** `not { … }` negates a body: the module imports `future.keywords.not` or `rego.v2` (E12). */
  notBodies = false;

  constructor(
    readonly toks: Token[],
    readonly file: string,
  ) {}

  peek(offset = 0): Token {
    return this.toks[Math.min(this.pos + offset, this.toks.length - 1)];
  }

  next(): Token {
    const t = this.toks[this.pos];
    if (this.pos < this.toks.length - 1) {
      this.pos++;
    }
    return t;
  }

  isOp(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'op' && t.text === text;
  }

  isIdent(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'ident' && t.text === text;
  }

  /** True when the current token touches the previous one (no whitespace between). */
  adjacent(): boolean {
    return !this.peek().spaceBefore && this.pos > 0;
  }

  expectOp(text: string): Token {
    if (!this.isOp(text)) {
      this.fail(`expected ${text}`);
    }
    return this.next();
  }

  expectIdent(): Token {
    const t = this.peek();
    if (t.kind !== 'ident') {
      this.fail('expected identifier');
    }
    return this.next();
  }

  loc(t: Token = this.peek()): Location {
    return { file: this.file, row: t.row, col: t.col };
  }

  fail(msg: string, t: Token = this.peek()): never {
    const found = t.kind === 'eof' ? 'EOF' : t.kind === 'string' ? 'string' : t.text;
    const suffix = msg.startsWith('unexpected') ? '' : ` (found ${found})`;
    throw compileError('rego_parse_error', msg + suffix, this.loc(t));
  }

  /** Fresh name for a wildcard `_`. */
  wildcard(): string {
    return `$_${this.gen++}`;
  }
}
