import { DomainException, FieldError, assertUnreachable } from '@agp/http';

export enum EvaluationPacksErrorCode {
  PackNotFound = 'evaluation-pack-not-found',
  EvaluationNotFound = 'evaluation-not-found',
  RunNotFound = 'evaluation-run-not-found',
  NameTaken = 'evaluation-pack-name-taken',
  InvalidOwner = 'evaluation-pack-invalid-owner',
}

/** Errors of evaluation packs, their evaluations and runs (STYLE §8). */
export class EvaluationPacksException extends DomainException {
  readonly status: number;

  constructor(code: EvaluationPacksErrorCode, message: string, errors?: FieldError[]) {
    super(code, message, errors);
    this.status = statusOf(code);
  }
}

function statusOf(code: EvaluationPacksErrorCode): number {
  switch (code) {
    case EvaluationPacksErrorCode.PackNotFound:
    case EvaluationPacksErrorCode.EvaluationNotFound:
    case EvaluationPacksErrorCode.RunNotFound:
      return 404;
    case EvaluationPacksErrorCode.NameTaken:
      return 409;
    case EvaluationPacksErrorCode.InvalidOwner:
      return 400;
    default:
      return assertUnreachable(code);
  }
}
