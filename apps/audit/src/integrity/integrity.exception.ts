import { DomainException, assertUnreachable } from '@agp/http';

export enum IntegrityErrorCode {
  INVALID_CURSOR = 'invalid-cursor',
}

function statusOf(code: IntegrityErrorCode): number {
  switch (code) {
    case IntegrityErrorCode.INVALID_CURSOR:
      return 400;
    default:
      return assertUnreachable(code);
  }
}

export class IntegrityException extends DomainException {
  readonly status: number;

  constructor(code: IntegrityErrorCode, message: string) {
    super(code, message, [{ field: 'cursor', message }]);
    this.status = statusOf(code);
  }
}
