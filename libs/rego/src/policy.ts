import { RefTerm, Term } from './ast/ast';
import { builtinRegistry } from './builtins/registry';
import { ModuleSource, Program, compileProgram } from './compiler/compiler';
import { compileQuery } from './compiler/query';
import { CompiledQuery } from './compiler/types';
import { RegoCompileError } from './errors';
import { Evaluator } from './eval/evaluator';
import { evalRef } from './eval/refs';
import { ENUM, direct } from './eval/direct';
import { Frame } from './eval/state';
import { JsonValue, fromJson, fromJsonDeep, toJson } from './values/json';
import { RegoObject, Value } from './values/value';
import { PatternSets } from './builtins/types';
import './builtins/all';

/** Options of one evaluation. */
export interface EvaluateOptions {
  /** The `input` document as plain JSON (converted on each call). */
  input?: unknown;
  /** The `input` document already converted with `fromJson` (skips conversion). */
  inputValue?: Value;
  /** OPA's strict built-in errors: a failing built-in stops evaluation with an error. */
  strictBuiltinErrors?: boolean;
  /** Wall-clock budget in milliseconds (default 50, D22). */
  timeoutMs?: number;
  /** Step budget (default 5,000,000 expression/iteration steps). */
  maxSteps?: number;
  /** Fixed clock for `time.now_ns` (default: the time of the call). */
  now?: Date;
  /** Receives `print` output. */
  print?: (line: string) => void;
  /** D53: the tenant's pattern sets, for `agp.detect.patterns(text, set)`. */
  patternSets?: PatternSets;
}

/** One solution of a query: each query variable bound to a Rego value. */
export type QueryBindings = Map<string, Value>;

/** Modules given by file name → source, or as a list. */
export type ModulesInput = Record<string, string> | ModuleSource[];

const DEFAULT_TIMEOUT_MS = 50;
const DEFAULT_MAX_STEPS = 5_000_000;

/** A set of Rego modules compiled once together with their `data`; evaluate it many times. */
export class CompiledPolicy {
  private readonly queries = new Map<string, CompiledQuery>();
  private readonly refs = new Map<string, RefTerm>();

  constructor(
    readonly program: Program,
    readonly data: Value,
  ) {}

  /** Evaluates a query (e.g. `data.pkg.allow = x`) and returns every solution as Rego values. */
  query(query: string, options: EvaluateOptions = {}): QueryBindings[] {
    let q = this.queries.get(query);
    if (!q) {
      q = compileQuery(this.program, query);
      this.queries.set(query, q);
    }
    const ev = this.evaluator(options);
    const f: Frame = new Array<Value | undefined>(q.nslots);
    const out: QueryBindings[] = [];
    const cq = q;
    ev.body(cq.body, 0, f, () => {
      const m: QueryBindings = new Map();
      for (const [name, slot] of cq.outputs) {
        const v = f[slot];
        if (v !== undefined) {
          m.set(name, v);
        }
      }
      out.push(m);
      return false;
    });
    return out;
  }

  /** Package path of each module (`package acme.guardrails` → `['acme', 'guardrails']`), in order. */
  get packages(): string[][] {
    return this.program.packages.map((p) => [...p]);
  }

  /** Same as `query`, with bindings converted to plain JSON (sets become sorted arrays). */
  queryJson(query: string, options: EvaluateOptions = {}): Record<string, JsonValue>[] {
    return this.query(query, options).map((m) =>
      Object.fromEntries([...m].map(([k, v]) => [k, toJson(v)])),
    );
  }

  /** Value of a document such as `data.acme.guardrails.decision`, as a Rego value, or undefined. */
  evaluateValue(ref: string, options: EvaluateOptions = {}): Value | undefined {
    let r = this.refs.get(ref);
    if (!r) {
      r = parseRefPath(ref);
      this.refs.set(ref, r);
    }
    const ev = this.evaluator(options);
    const v = direct(ev, r, []);
    if (v !== ENUM) {
      return v;
    }
    let result: Value | undefined;
    evalRef(ev, r, [], (x) => ((result = x), true));
    return result;
  }

  /** Value of a document such as `data.acme.guardrails.decision` as plain JSON, or undefined. */
  evaluateRule(ref: string, options: EvaluateOptions = {}): JsonValue | undefined {
    const v = this.evaluateValue(ref, options);
    return v === undefined ? undefined : toJson(v);
  }

  private evaluator(options: EvaluateOptions): Evaluator {
    const input =
      options.inputValue ?? (options.input === undefined ? undefined : fromJson(options.input));
    const limits = {
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    };
    return new Evaluator(
      this.program,
      this.data,
      input,
      options.strictBuiltinErrors ?? false,
      limits,
      options,
    );
  }
}

/** Compiles modules (and base `data`) once; throws `RegoCompileError` listing every error. */
export function compilePolicy(
  modules: ModulesInput,
  options: {
    data?: unknown;
    /** OPA's strict mode: unused assignments, `some` declarations, function arguments and imports are errors. */
    strict?: boolean;
    /** JSON schemas for type checking (OPA's `--schema`), by reference. */
    schemas?: Record<string, unknown>;
  } = {},
): CompiledPolicy {
  const sources: ModuleSource[] = Array.isArray(modules)
    ? modules
    : Object.entries(modules).map(([file, source]) => ({ file, source }));
  const program = compileProgram(sources, builtinRegistry(), {
    strict: options.strict,
    schemas: options.schemas,
  });
  const data = options.data === undefined ? new RegoObject() : fromJsonDeep(options.data);
  return new CompiledPolicy(program, data);
}

function parseRefPath(ref: string): RefTerm {
  const parts = ref.split('.');
  if (parts[0] !== 'data' || parts.some((p) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p))) {
    throw new RegoCompileError([
      {
        code: 'rego_parse_error',
        message: `invalid rule reference ${ref}`,
        location: { file: 'query', row: 1, col: 1 },
      },
    ]);
  }
  const loc = { file: 'query', row: 1, col: 1 };
  const terms: Term[] = [
    { type: 'var', name: 'data', loc, slot: -1 },
    ...parts.slice(1).map((p) => ({ type: 'scalar' as const, value: p, loc })),
  ];
  return { type: 'ref', terms, loc };
}
