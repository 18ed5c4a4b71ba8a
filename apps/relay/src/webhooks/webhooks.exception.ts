import { DomainException, FieldError, assertUnreachable } from '@agp/http';

export enum WebhooksErrorCode {
  AgentNotFound = 'webhook-agent-not-found',
  DeliveryNotFound = 'webhook-delivery-not-found',
  NoWebhook = 'webhook-not-configured',
  InvalidUrl = 'webhook-invalid-url',
  Forbidden = 'forbidden',
}

/** Errors of agents' webhooks (D19, STYLE § 8). */
export class WebhooksException extends DomainException {
  readonly status: number;

  constructor(code: WebhooksErrorCode, message: string, errors?: FieldError[]) {
    super(code, message, errors);
    this.status = statusOf(code);
  }
}

function statusOf(code: WebhooksErrorCode): number {
  switch (code) {
    case WebhooksErrorCode.AgentNotFound:
    case WebhooksErrorCode.DeliveryNotFound:
      return 404;
    case WebhooksErrorCode.NoWebhook:
      return 409;
    case WebhooksErrorCode.InvalidUrl:
      return 400;
    case WebhooksErrorCode.Forbidden:
      return 403;
    default:
      return assertUnreachable(code);
  }
}
