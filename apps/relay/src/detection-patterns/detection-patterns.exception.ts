import { domainException } from '@agp/http';

export enum DetectionPatternsErrorCode {
  PatternNotFound = 'detection-pattern-not-found',
  LabelTaken = 'detection-pattern-label-taken',
}

/** Errors of tenant pattern sets (D53, STYLE § 8); a pattern the engine refuses is a D12 400. */
export class DetectionPatternsException extends domainException<DetectionPatternsErrorCode>({
  [DetectionPatternsErrorCode.PatternNotFound]: 404,
  [DetectionPatternsErrorCode.LabelTaken]: 409,
}) {}
