import { AlertStatus } from '@agp/contracts';
import { FieldError, domainException } from '@agp/http';

export enum MonitorsErrorCode {
  ALERT_NOT_FOUND = 'alert-not-found',
  TRANSITION_NOT_ALLOWED = 'alert-transition-not-allowed',
  ANOTHER_ALERT_ACTIVE = 'alert-another-active',
  MONITOR_NOT_FOUND = 'monitor-not-found',
  MONITOR_NAME_TAKEN = 'monitor-name-taken',
  SYSTEM_TEMPLATE_READ_ONLY = 'monitor-system-template-read-only',
  MUTE_NOT_FOUND = 'monitor-mute-not-found',
  MUTE_ENDED = 'monitor-mute-ended',
  DOWNTIME_NOT_FOUND = 'monitor-downtime-not-found',
  DOWNTIME_CANCELLED = 'monitor-downtime-cancelled',
  INVALID = 'monitor-invalid',
}

export class MonitorsException extends domainException<MonitorsErrorCode>({
  [MonitorsErrorCode.ALERT_NOT_FOUND]: 404,
  [MonitorsErrorCode.MONITOR_NOT_FOUND]: 404,
  [MonitorsErrorCode.MUTE_NOT_FOUND]: 404,
  [MonitorsErrorCode.DOWNTIME_NOT_FOUND]: 404,
  [MonitorsErrorCode.TRANSITION_NOT_ALLOWED]: 409,
  [MonitorsErrorCode.ANOTHER_ALERT_ACTIVE]: 409,
  [MonitorsErrorCode.MONITOR_NAME_TAKEN]: 409,
  [MonitorsErrorCode.SYSTEM_TEMPLATE_READ_ONLY]: 409,
  [MonitorsErrorCode.MUTE_ENDED]: 409,
  [MonitorsErrorCode.DOWNTIME_CANCELLED]: 409,
  [MonitorsErrorCode.INVALID]: 400,
}) {
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

  /** D12: a 400 listing every bad field. */
  static invalid(errors: FieldError[]): MonitorsException {
    return new MonitorsException(
      MonitorsErrorCode.INVALID,
      `invalid request: ${errors.map((e) => e.field).join(', ')}`,
      errors,
    );
  }
}
