import { domainException } from '@agp/http';

export enum SubscriptionsErrorCode {
  NotFound = 'subscription-not-found',
  AgentNotFound = 'agent-not-found',
  Duplicate = 'subscription-exists',
  InvalidReference = 'subscription-invalid-reference',
  ForeignAgent = 'forbidden',
}

/** Errors of subscriptions and tool grants (D32, STYLE § 8). */
export class SubscriptionsException extends domainException<SubscriptionsErrorCode>({
  [SubscriptionsErrorCode.NotFound]: 404,
  [SubscriptionsErrorCode.AgentNotFound]: 404,
  [SubscriptionsErrorCode.Duplicate]: 409,
  [SubscriptionsErrorCode.InvalidReference]: 400,
  [SubscriptionsErrorCode.ForeignAgent]: 403,
}) {}
