import { DomainException, FieldError, assertUnreachable } from '@agp/http';

export enum SubscriptionsErrorCode {
  NotFound = 'subscription-not-found',
  AgentNotFound = 'agent-not-found',
  Duplicate = 'subscription-exists',
  InvalidReference = 'subscription-invalid-reference',
  ForeignAgent = 'forbidden',
}

/** Errors of subscriptions and tool grants (D32, STYLE § 8). */
export class SubscriptionsException extends DomainException {
  readonly status: number;

  constructor(code: SubscriptionsErrorCode, message: string, errors?: FieldError[]) {
    super(code, message, errors);
    this.status = statusOf(code);
  }
}

function statusOf(code: SubscriptionsErrorCode): number {
  switch (code) {
    case SubscriptionsErrorCode.NotFound:
    case SubscriptionsErrorCode.AgentNotFound:
      return 404;
    case SubscriptionsErrorCode.Duplicate:
      return 409;
    case SubscriptionsErrorCode.InvalidReference:
      return 400;
    case SubscriptionsErrorCode.ForeignAgent:
      return 403;
    default:
      return assertUnreachable(code);
  }
}
