export type TokenKind = 'ident' | 'string' | 'number' | 'op' | 'eof';

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
}
