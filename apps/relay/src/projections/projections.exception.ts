import { domainException } from '@agp/http';

export enum ProjectionsErrorCode {
  OwnerUnavailable = 'owner-unavailable',
}

/**
 * Errors of reading another service's identities (issue 30): an id this replica does not hold
 * could not be checked with its owner. A 503 with `Retry-After`, never a 404 the caller would take
 * for "that id does not exist".
 */
export class ProjectionsException extends domainException<ProjectionsErrorCode>({
  [ProjectionsErrorCode.OwnerUnavailable]: 503,
}) {}
