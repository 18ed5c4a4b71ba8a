import { domainException } from '@agp/http';

export enum KillSwitchesErrorCode {
  NotFound = 'kill-switch-not-found',
  AlreadyEngaged = 'kill-switch-engaged',
  AlreadyReleased = 'kill-switch-released',
  InvalidTarget = 'kill-switch-invalid-target',
}

/** Errors of kill switches (D35, STYLE § 8). */
export class KillSwitchesException extends domainException<KillSwitchesErrorCode>({
  [KillSwitchesErrorCode.NotFound]: 404,
  [KillSwitchesErrorCode.AlreadyEngaged]: 409,
  [KillSwitchesErrorCode.AlreadyReleased]: 409,
  [KillSwitchesErrorCode.InvalidTarget]: 400,
}) {}
