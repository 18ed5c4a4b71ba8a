import { DomainException, FieldError, assertUnreachable } from '@agp/http';

export enum RegistryErrorCode {
  NotFound = 'registry-entry-not-found',
  NameTaken = 'registry-name-taken',
  InvalidReference = 'registry-invalid-reference',
  InUse = 'registry-entry-in-use',
}

/** Errors of the relay's registry: agents, MCP servers, channels, LLM gateways (STYLE §8). */
export class RegistryException extends DomainException {
  readonly status: number;

  constructor(code: RegistryErrorCode, message: string, errors?: FieldError[]) {
    super(code, message, errors);
    this.status = statusOf(code);
  }
}

function statusOf(code: RegistryErrorCode): number {
  switch (code) {
    case RegistryErrorCode.NotFound:
      return 404;
    case RegistryErrorCode.NameTaken:
      return 409;
    case RegistryErrorCode.InvalidReference:
      return 400;
    case RegistryErrorCode.InUse:
      return 409;
    default:
      return assertUnreachable(code);
  }
}
