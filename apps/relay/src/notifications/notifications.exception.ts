import { domainException } from '@agp/http';

export enum NotificationsErrorCode {
  TargetNotFound = 'notification-target-not-found',
  NameTaken = 'notification-target-name-taken',
}

/** Errors of notification targets (D58, STYLE § 8); invalid configs are D12 validation errors. */
export class NotificationsException extends domainException<NotificationsErrorCode>({
  [NotificationsErrorCode.TargetNotFound]: 404,
  [NotificationsErrorCode.NameTaken]: 409,
}) {}
