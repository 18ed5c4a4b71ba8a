import { DomainException, assertUnreachable } from '@agp/http';

export enum IdentityErrorCode {
  NotFound = 'not-found',
  Duplicate = 'duplicate',
  InvalidReference = 'invalid-reference',
  Escalation = 'escalation',
  OperatorOnly = 'operator-only',
  InvalidState = 'invalid-state',
}

function statusOf(code: IdentityErrorCode): number {
  switch (code) {
    case IdentityErrorCode.NotFound:
      return 404;
    case IdentityErrorCode.Duplicate:
    case IdentityErrorCode.InvalidState:
      return 409;
    case IdentityErrorCode.InvalidReference:
      return 400;
    case IdentityErrorCode.Escalation:
    case IdentityErrorCode.OperatorOnly:
      return 403;
    default:
      return assertUnreachable(code);
  }
}

/** The errors of tenant-auth's resources (D12): an unknown id and another tenant's id are both 404. */
export class IdentityException extends DomainException {
  readonly status: number;

  constructor(code: IdentityErrorCode, detail: string, field?: string) {
    super(code, detail, field ? [{ field, message: detail }] : undefined);
    this.status = statusOf(code);
  }

  static notFound(what: string, id: string): IdentityException {
    return new IdentityException(IdentityErrorCode.NotFound, `${what} ${id} not found`);
  }

  static duplicate(detail: string): IdentityException {
    return new IdentityException(IdentityErrorCode.Duplicate, detail);
  }

  static invalidReference(field: string, detail: string): IdentityException {
    return new IdentityException(IdentityErrorCode.InvalidReference, detail, field);
  }
}
