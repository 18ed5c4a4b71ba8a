import { domainException } from '@agp/http';

export enum ProjectionsErrorCode {
  OwnerUnavailable = 'owner-unavailable',
}

/** Issue 30: a 503 with `Retry-After`, never a 404 a caller would read as "no such id". */
export class ProjectionsException extends domainException<ProjectionsErrorCode>({
  [ProjectionsErrorCode.OwnerUnavailable]: 503,
}) {}
