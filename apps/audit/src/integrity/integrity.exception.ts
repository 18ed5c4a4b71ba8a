import { domainException } from '@agp/http';

export enum IntegrityErrorCode {
  INVALID_CURSOR = 'invalid-cursor',
}

export class IntegrityException extends domainException<IntegrityErrorCode>({
  [IntegrityErrorCode.INVALID_CURSOR]: 400,
}) {
  constructor(code: IntegrityErrorCode, message: string) {
    super(code, message, [{ field: 'cursor', message }]);
  }
}
