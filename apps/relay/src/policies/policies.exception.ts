import { domainException } from '@agp/http';

export enum PoliciesErrorCode {
  GroupNotFound = 'policy-group-not-found',
  VersionNotFound = 'policy-version-not-found',
  BindingNotFound = 'policy-binding-not-found',
  GroupNameTaken = 'policy-group-name-taken',
  VersionNotIncreasing = 'policy-version-not-increasing',
  VersionDoesNotCompile = 'policy-version-does-not-compile',
  VersionTestsFail = 'policy-version-tests-failed',
  VersionOutsideWindow = 'policy-version-outside-validity',
  VersionRetired = 'policy-version-retired',
  VersionBound = 'policy-version-bound',
  GroupHasBindings = 'policy-group-has-bindings',
  NoValidVersion = 'policy-group-has-no-valid-version',
  InvalidRequest = 'policy-invalid-request',
  BindingNotShadow = 'policy-binding-not-shadow',
  ReplayNotFound = 'policy-replay-not-found',
  ReplayFinished = 'policy-replay-finished',
}

export class PoliciesException extends domainException<PoliciesErrorCode>({
  [PoliciesErrorCode.GroupNotFound]: 404,
  [PoliciesErrorCode.VersionNotFound]: 404,
  [PoliciesErrorCode.BindingNotFound]: 404,
  [PoliciesErrorCode.VersionDoesNotCompile]: 400,
  [PoliciesErrorCode.VersionTestsFail]: 400,
  [PoliciesErrorCode.InvalidRequest]: 400,
  [PoliciesErrorCode.GroupNameTaken]: 409,
  [PoliciesErrorCode.VersionNotIncreasing]: 409,
  [PoliciesErrorCode.VersionOutsideWindow]: 409,
  [PoliciesErrorCode.VersionRetired]: 409,
  [PoliciesErrorCode.VersionBound]: 409,
  [PoliciesErrorCode.GroupHasBindings]: 409,
  [PoliciesErrorCode.NoValidVersion]: 409,
  [PoliciesErrorCode.BindingNotShadow]: 409,
  [PoliciesErrorCode.ReplayNotFound]: 404,
  [PoliciesErrorCode.ReplayFinished]: 409,
}) {}
