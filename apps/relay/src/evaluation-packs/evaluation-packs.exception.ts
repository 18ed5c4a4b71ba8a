import { domainException } from '@agp/http';

export enum EvaluationPacksErrorCode {
  PackNotFound = 'evaluation-pack-not-found',
  EvaluationNotFound = 'evaluation-not-found',
  RunNotFound = 'evaluation-run-not-found',
  NameTaken = 'evaluation-pack-name-taken',
  InvalidOwner = 'evaluation-pack-invalid-owner',
  RunFinished = 'evaluation-run-finished',
}

export class EvaluationPacksException extends domainException<EvaluationPacksErrorCode>({
  [EvaluationPacksErrorCode.PackNotFound]: 404,
  [EvaluationPacksErrorCode.EvaluationNotFound]: 404,
  [EvaluationPacksErrorCode.RunNotFound]: 404,
  [EvaluationPacksErrorCode.NameTaken]: 409,
  [EvaluationPacksErrorCode.InvalidOwner]: 400,
  [EvaluationPacksErrorCode.RunFinished]: 409,
}) {}
