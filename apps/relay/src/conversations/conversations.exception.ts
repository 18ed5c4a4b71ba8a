import { domainException } from '@agp/http';

export enum ConversationsErrorCode {
  NotFound = 'conversation-not-found',
  InvalidCursor = 'conversation-invalid-cursor',
  NotDeliverable = 'conversation-not-deliverable',
  MessageBlocked = 'conversation-message-blocked',
  DeliveryFailed = 'conversation-delivery-failed',
  AuditUnavailable = 'conversation-audit-unavailable',
}

export class ConversationsException extends domainException<ConversationsErrorCode>({
  [ConversationsErrorCode.NotFound]: 404,
  [ConversationsErrorCode.InvalidCursor]: 400,
  [ConversationsErrorCode.NotDeliverable]: 409,
  [ConversationsErrorCode.MessageBlocked]: 403,
  [ConversationsErrorCode.DeliveryFailed]: 502,
  [ConversationsErrorCode.AuditUnavailable]: 503,
}) {}
