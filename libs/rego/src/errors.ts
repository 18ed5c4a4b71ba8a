import { Location } from './ast/ast';

/** One compile-time problem, in OPA's categories (`rego_parse_error`, `rego_type_error`, …). */
export interface RegoErrorDetail {
  code: string;
  message: string;
  location: Location;
}

/** Thrown when modules or a query do not parse or compile; carries every error found. */
export class RegoCompileError extends Error {
  constructor(readonly errors: RegoErrorDetail[]) {
    super(
      (errors.length > 1 ? `${errors.length} errors occurred:\n` : '') +
        errors.map(formatDetail).join('\n'),
    );
    this.name = 'RegoCompileError';
  }
}

/** Thrown during evaluation (`eval_conflict_error`, `eval_builtin_error`, `eval_type_error`, …). */
export class RegoEvalError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
    readonly location?: Location,
  ) {
    super(location ? `${location.file}:${location.row}: ${code}: ${detail}` : `${code}: ${detail}`);
    this.name = 'RegoEvalError';
  }
}

export function formatDetail(e: RegoErrorDetail): string {
  // An error without a place (a bad root schema) prints as OPA prints one without a location.
  if (e.location.file === '' && e.location.row === 0) {
    return `${e.code}: ${e.message}`;
  }
  return `${e.location.file}:${e.location.row}: ${e.code}: ${e.message}`;
}

export function compileError(code: string, message: string, location: Location): RegoCompileError {
  return new RegoCompileError([{ code, message, location }]);
}
