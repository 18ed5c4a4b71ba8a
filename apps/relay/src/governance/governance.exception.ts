import { DomainException, FieldError, assertUnreachable } from '@agp/http';

export enum GovernanceErrorCode {
  RecordNotFound = 'governance-record-not-found',
  IncidentNotFound = 'governance-incident-not-found',
  AlreadyGoverned = 'governance-record-exists',
  IncidentNotOpen = 'governance-incident-not-open',
  TierInUse = 'governance-risk-tier-in-use',
  Invalid = 'governance-invalid',
}

/** Errors of governance records (issue 17, STYLE § 8). */
export class GovernanceException extends DomainException {
  readonly status: number;

  constructor(code: GovernanceErrorCode, message: string, errors?: FieldError[]) {
    super(code, message, errors);
    this.status = statusOf(code);
  }

  /** D12: a 400 listing what was wrong. */
  static invalid(errors: FieldError[]): GovernanceException {
    return new GovernanceException(
      GovernanceErrorCode.Invalid,
      `invalid request: ${errors.map((e) => e.field).join(', ')}`,
      errors,
    );
  }
}

function statusOf(code: GovernanceErrorCode): number {
  switch (code) {
    case GovernanceErrorCode.RecordNotFound:
    case GovernanceErrorCode.IncidentNotFound:
      return 404;
    case GovernanceErrorCode.AlreadyGoverned:
    case GovernanceErrorCode.IncidentNotOpen:
    case GovernanceErrorCode.TierInUse:
      return 409;
    case GovernanceErrorCode.Invalid:
      return 400;
    default:
      return assertUnreachable(code);
  }
}
