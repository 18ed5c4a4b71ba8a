import { DomainException, FieldError, assertUnreachable } from '@agp/http';

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
}

/** Errors of policy groups, versions and bindings; one exhaustive code → status mapping (STYLE §8). */
export class PoliciesException extends DomainException {
  readonly status: number;

  constructor(code: PoliciesErrorCode, message: string, errors?: FieldError[]) {
    super(code, message, errors);
    this.status = statusOf(code);
  }
}

function statusOf(code: PoliciesErrorCode): number {
  switch (code) {
    case PoliciesErrorCode.GroupNotFound:
    case PoliciesErrorCode.VersionNotFound:
    case PoliciesErrorCode.BindingNotFound:
      return 404;
    case PoliciesErrorCode.VersionDoesNotCompile:
    case PoliciesErrorCode.VersionTestsFail:
    case PoliciesErrorCode.InvalidRequest:
      return 400;
    case PoliciesErrorCode.GroupNameTaken:
    case PoliciesErrorCode.VersionNotIncreasing:
    case PoliciesErrorCode.VersionOutsideWindow:
    case PoliciesErrorCode.VersionRetired:
    case PoliciesErrorCode.VersionBound:
    case PoliciesErrorCode.GroupHasBindings:
    case PoliciesErrorCode.NoValidVersion:
      return 409;
    default:
      return assertUnreachable(code);
  }
}
