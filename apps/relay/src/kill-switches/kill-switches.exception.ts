import { DomainException, FieldError, assertUnreachable } from '@agp/http';

export enum KillSwitchesErrorCode {
  NotFound = 'kill-switch-not-found',
  AlreadyEngaged = 'kill-switch-engaged',
  AlreadyReleased = 'kill-switch-released',
  InvalidTarget = 'kill-switch-invalid-target',
}

/** Errors of kill switches (D35, STYLE § 8). */
export class KillSwitchesException extends DomainException {
  readonly status: number;

  constructor(code: KillSwitchesErrorCode, message: string, errors?: FieldError[]) {
    super(code, message, errors);
    this.status = statusOf(code);
  }
}

function statusOf(code: KillSwitchesErrorCode): number {
  switch (code) {
    case KillSwitchesErrorCode.NotFound:
      return 404;
    case KillSwitchesErrorCode.AlreadyEngaged:
    case KillSwitchesErrorCode.AlreadyReleased:
      return 409;
    case KillSwitchesErrorCode.InvalidTarget:
      return 400;
    default:
      return assertUnreachable(code);
  }
}
