import { domainException } from '@agp/http';

export enum HitlErrorCode {
  NotFound = 'hitl-request-not-found',
  InvalidTransition = 'hitl-invalid-transition',
}

/** Errors of human review (D34, STYLE § 8). */
export class HitlException extends domainException<HitlErrorCode>({
  [HitlErrorCode.NotFound]: 404,
  [HitlErrorCode.InvalidTransition]: 409,
}) {}
