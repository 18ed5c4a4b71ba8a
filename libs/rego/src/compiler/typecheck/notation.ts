import { BUILTIN_DECLS } from '../../builtins/decls';
import {
  anyOf,
  arrayOf,
  FunctionType,
  MaybeType,
  objectOf,
  setOf,
  StaticProperty,
  T_ANY,
  T_BOOLEAN,
  T_NULL,
  T_NUMBER,
  T_STRING,
  Type,
} from './types';

// Reads a type in OPA's printed notation (`any<string, array[any]>`, `object<a: number>[string:
// any]`, `set[string]`) or a function declaration `(name: type, …) => name: type`.
class NotationReader {
  private pos = 0;

  constructor(private readonly text: string) {}

  fn(): FunctionType {
    this.expect('(');
    const args: MaybeType[] = [];
    const names: (string | undefined)[] = [];
    let variadic: Type | undefined;
    while (!this.eat(')')) {
      const name = this.name();
      const t = this.type();
      if (this.eat('...')) {
        variadic = t;
      } else {
        args.push(t);
        names.push(name);
      }
      this.eat(',');
    }
    const f: FunctionType = { kind: 'function', args, names, variadic };
    if (this.eat('=>')) {
      f.resultName = this.name();
      f.result = this.type();
    }
    return f;
  }

  type(): Type {
    const word = this.word();
    switch (word) {
      case 'null':
        return T_NULL;
      case 'boolean':
        return T_BOOLEAN;
      case 'number':
        return T_NUMBER;
      case 'string':
        return T_STRING;
      case 'any':
        return this.eat('<') ? anyOf(...this.list(() => this.type())) : T_ANY;
      case 'set': {
        this.expect('[');
        const of = this.type();
        this.expect(']');
        return setOf(of);
      }
      case 'array': {
        const stat = this.eat('<') ? this.list(() => this.type()) : [];
        let dynamic: Type | undefined;
        if (this.eat('[')) {
          dynamic = this.type();
          this.expect(']');
        }
        return arrayOf(stat, dynamic);
      }
      case 'object': {
        const stat: StaticProperty[] = this.eat('<')
          ? this.list(() => {
              const key = this.word();
              this.expect(':');
              return { key, value: this.type() };
            })
          : [];
        if (this.eat('[')) {
          const key = this.type();
          this.expect(':');
          const value = this.type();
          this.expect(']');
          return objectOf(stat, { key, value });
        }
        return objectOf(stat);
      }
      default:
        throw new Error(`type notation: unknown type ${word} in ${this.text}`);
    }
  }

  /** Items up to the closing `>`. */
  private list<T>(item: () => T): T[] {
    const out: T[] = [];
    while (!this.eat('>')) {
      out.push(item());
      this.eat(',');
    }
    return out;
  }

  /** An optional `name:` before a parameter's type. */
  private name(): string | undefined {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_ ]*?)\s*:/.exec(this.text.slice(this.pos));
    if (!m) {
      return undefined;
    }
    this.pos += m[0].length;
    return m[1];
  }

  private word(): string {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(this.text.slice(this.pos));
    if (!m) {
      throw new Error(`type notation: expected a name at ${this.pos} in ${this.text}`);
    }
    this.pos += m[0].length;
    return m[1];
  }

  private eat(s: string): boolean {
    while (this.text[this.pos] === ' ') {
      this.pos++;
    }
    if (this.text.startsWith(s, this.pos)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }

  private expect(s: string): void {
    if (!this.eat(s)) {
      throw new Error(`type notation: expected ${s} at ${this.pos} in ${this.text}`);
    }
  }
}

/** Parses a function declaration written in OPA's notation. */
export function parseDecl(text: string): FunctionType {
  return new NotationReader(text).fn();
}

/** Parses a type written in OPA's notation. */
export function parseType(text: string): Type {
  return new NotationReader(text).type();
}

let decls: Map<string, FunctionType> | undefined;

/** The declared type of a built-in (OPA's `Decl`), or undefined when OPA declares none. */
export function builtinDecl(name: string): FunctionType | undefined {
  if (!decls) {
    decls = new Map(Object.entries(BUILTIN_DECLS).map(([n, text]) => [n, parseDecl(text)]));
  }
  return decls.get(name);
}
