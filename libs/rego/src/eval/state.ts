import { CallTarget } from '../ast/ast';
import { DocNode } from '../compiler/types';
import { Value } from '../values/value';

export type Mock = { kind: 'value'; value: Value } | { kind: 'target'; target: CallTarget };

/** Shared empty mock table (never mutated; `with` makes copies). */
export const NO_MOCKS: Map<string, Mock> = new Map();

/** Marker for a memoised undefined document. */
export const UNDEF = Symbol('undefined');

/** What `with` can change; a fresh memo comes with every change. */
export interface EvalState {
  input: Value | undefined;
  overrides: { path: string[]; value: Value }[];
  mocks: Map<string, Mock>;
  memo: Map<DocNode, Value | typeof UNDEF>;
  fnMemo: Map<string, Value | typeof UNDEF> | undefined;
}

export type Frame = (Value | undefined)[];
/** Continuation: returns true to stop the search. */
export type K = () => boolean;
export type VK = (v: Value) => boolean;
