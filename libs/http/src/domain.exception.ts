import { FieldError } from './problem-details';

/**
 * Base of every feature exception (`AlertsException`, …). A feature maps each of its error codes to
 * a status with an exhaustive switch; the problem+json filter renders it (STYLE.md §8).
 */
export abstract class DomainException extends Error {
  abstract readonly status: number;

  /**
   * Extension members of the body (RFC 9457 § 3.2), such as the `reasons` and `decisionId` of a
   * refused hop (D33); the standard members always win over a name given here.
   */
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

/** The exception class `domainException` makes: a feature's codes in, a `DomainException` out. */
export type DomainExceptionClass<Code extends string> = new (
  code: Code,
  message: string,
  errors?: FieldError[],
  headers?: Record<string, string>,
) => DomainException & { readonly status: number };

/**
 * The one shape of a feature's exception (STYLE § 8): `class XException extends
 * domainException<XErrorCode>({ [XErrorCode.NotFound]: 404, … }) {}`. The table is a `Record` of
 * every code, so a code added without its status does not compile, as the exhaustive switch
 * each feature used to write did. Named factories (`static invalid(…)`) go in the subclass.
 */
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
