import { domainException } from '@agp/http';

export enum WebhooksErrorCode {
  AgentNotFound = 'webhook-agent-not-found',
  DeliveryNotFound = 'webhook-delivery-not-found',
  NoWebhook = 'webhook-not-configured',
  InvalidUrl = 'webhook-invalid-url',
  Forbidden = 'forbidden',
}

/** Errors of agents' webhooks (D19, STYLE § 8). */
export class WebhooksException extends domainException<WebhooksErrorCode>({
  [WebhooksErrorCode.AgentNotFound]: 404,
  [WebhooksErrorCode.DeliveryNotFound]: 404,
  [WebhooksErrorCode.NoWebhook]: 409,
  [WebhooksErrorCode.InvalidUrl]: 400,
  [WebhooksErrorCode.Forbidden]: 403,
}) {}
