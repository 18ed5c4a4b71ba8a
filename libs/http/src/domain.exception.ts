import { FieldError } from './problem-details';

/**
 * Base of every feature exception (`AlertsException`, …). A feature maps each of its error codes to
 * a status with an exhaustive switch; the problem+json filter renders it (STYLE.md §8).
 */
export abstract class DomainException extends Error {
  abstract readonly status: number;

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
