export type TokenKind = 'ident' | 'string' | 'number' | 'op' | 'template' | 'eof';

/** Piece of a template string (`$"…{expr}…"`): literal text or the source of an expression. */
export type TemplatePart = { text: string } | { src: string; row: number; col: number };

export interface Token {
  kind: TokenKind;
  /** Identifier name, operator text, decoded string or number text. */
  text: string;
  row: number;
  col: number;
  /** Offset of the first character; `end` is one past the last. */
  start: number;
  end: number;
  newlineBefore: boolean;
  spaceBefore: boolean;
  raw?: boolean;
  parts?: TemplatePart[];
}
