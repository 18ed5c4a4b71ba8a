import { domainException } from '@agp/http';

export enum IdentityErrorCode {
  NotFound = 'not-found',
  Duplicate = 'duplicate',
  InvalidReference = 'invalid-reference',
  Escalation = 'escalation',
  OperatorOnly = 'operator-only',
  InvalidState = 'invalid-state',
}

/** The errors of tenant-auth's resources (D12): an unknown id and another tenant's id are both 404. */
export class IdentityException extends domainException<IdentityErrorCode>({
  [IdentityErrorCode.NotFound]: 404,
  [IdentityErrorCode.Duplicate]: 409,
  [IdentityErrorCode.InvalidState]: 409,
  [IdentityErrorCode.InvalidReference]: 400,
  [IdentityErrorCode.Escalation]: 403,
  [IdentityErrorCode.OperatorOnly]: 403,
}) {
  constructor(code: IdentityErrorCode, detail: string, field?: string) {
    super(code, detail, field ? [{ field, message: detail }] : undefined);
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
