import { DomainException, assertUnreachable } from '@agp/http';

export enum HitlErrorCode {
  NotFound = 'hitl-request-not-found',
  InvalidTransition = 'hitl-invalid-transition',
}

/** Errors of human review (D34, STYLE § 8). */
export class HitlException extends DomainException {
  readonly status: number;

  constructor(code: HitlErrorCode, message: string) {
    super(code, message);
    this.status = statusOf(code);
  }
}

function statusOf(code: HitlErrorCode): number {
  switch (code) {
    case HitlErrorCode.NotFound:
      return 404;
    case HitlErrorCode.InvalidTransition:
      return 409;
    default:
      return assertUnreachable(code);
  }
}
