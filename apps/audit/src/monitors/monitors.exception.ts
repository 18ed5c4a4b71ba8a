import { AlertStatus } from '@agp/contracts';
import { DomainException, assertUnreachable } from '@agp/http';

export enum MonitorsErrorCode {
  ALERT_NOT_FOUND = 'alert-not-found',
  TRANSITION_NOT_ALLOWED = 'alert-transition-not-allowed',
  ANOTHER_ALERT_ACTIVE = 'alert-another-active',
}

function statusOf(code: MonitorsErrorCode): number {
  switch (code) {
    case MonitorsErrorCode.ALERT_NOT_FOUND:
      return 404;
    case MonitorsErrorCode.TRANSITION_NOT_ALLOWED:
    case MonitorsErrorCode.ANOTHER_ALERT_ACTIVE:
      return 409;
    default:
      return assertUnreachable(code);
  }
}

export class MonitorsException extends DomainException {
  readonly status: number;

  private constructor(code: MonitorsErrorCode, message: string) {
    super(code, message);
    this.status = statusOf(code);
  }

  static alertNotFound(alertId: string): MonitorsException {
    return new MonitorsException(MonitorsErrorCode.ALERT_NOT_FOUND, `alert ${alertId} not found`);
  }

  /** D14: "anything else is 409 naming the current status". */
  static transitionNotAllowed(operation: string, status: AlertStatus): MonitorsException {
    return new MonitorsException(
      MonitorsErrorCode.TRANSITION_NOT_ALLOWED,
      `cannot ${operation} an alert whose status is ${status}`,
    );
  }

  static anotherAlertActive(alertId: string): MonitorsException {
    return new MonitorsException(
      MonitorsErrorCode.ANOTHER_ALERT_ACTIVE,
      `cannot reopen: alert ${alertId} is already open for the same detector and subject`,
    );
  }
}
