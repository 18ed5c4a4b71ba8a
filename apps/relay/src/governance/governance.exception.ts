import { FieldError, domainException } from '@agp/http';

export enum GovernanceErrorCode {
  RecordNotFound = 'governance-record-not-found',
  IncidentNotFound = 'governance-incident-not-found',
  AlreadyGoverned = 'governance-record-exists',
  IncidentNotOpen = 'governance-incident-not-open',
  TierInUse = 'governance-risk-tier-in-use',
  Invalid = 'governance-invalid',
}

/** Errors of governance records (issue 17, STYLE § 8). */
export class GovernanceException extends domainException<GovernanceErrorCode>({
  [GovernanceErrorCode.RecordNotFound]: 404,
  [GovernanceErrorCode.IncidentNotFound]: 404,
  [GovernanceErrorCode.AlreadyGoverned]: 409,
  [GovernanceErrorCode.IncidentNotOpen]: 409,
  [GovernanceErrorCode.TierInUse]: 409,
  [GovernanceErrorCode.Invalid]: 400,
}) {
  /** D12: a 400 listing what was wrong. */
  static invalid(errors: FieldError[]): GovernanceException {
    return new GovernanceException(
      GovernanceErrorCode.Invalid,
      `invalid request: ${errors.map((e) => e.field).join(', ')}`,
      errors,
    );
  }
}
