import { FieldError } from './problem-details';

/** Base of every feature exception (`AlertsException`, …) (§8). */
export abstract class DomainException extends Error {
  abstract readonly status: number;

  // Extension members of the body (RFC 9457 § 3.2), such as the `reasons` and `decisionId` of a
  // refused hop (D33); the standard members always win over a name given here.
  readonly extensions?: Readonly<Record<string, unknown>>;

  protected constructor(
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export function assertUnreachable(value: never): never {
  throw new Error(`unhandled case: ${String(value)}`);
}

export type DomainExceptionClass<Code extends string> = new (
  code: Code,
  message: string,
  errors?: FieldError[],
  headers?: Record<string, string>,
) => DomainException & { readonly status: number };

/** The one shape of a feature's exception (STYLE § 8). */
export function domainException<Code extends string>(
  statuses: Readonly<Record<Code, number>>,
): DomainExceptionClass<Code> {
  return class extends DomainException {
    readonly status: number;

    constructor(
      code: Code,
      message: string,
      errors?: FieldError[],
      headers?: Record<string, string>,
    ) {
      super(code, message, errors, headers);
      this.status = statuses[code];
    }
  };
}
