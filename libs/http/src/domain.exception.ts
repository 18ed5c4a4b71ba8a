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
