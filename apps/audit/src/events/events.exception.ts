import { DomainException, assertUnreachable } from '@agp/http';

export enum EventsErrorCode {
  EVENT_NOT_FOUND = 'event-not-found',
  TRACE_NOT_FOUND = 'trace-not-found',
  INVALID_CURSOR = 'invalid-cursor',
}

function statusOf(code: EventsErrorCode): number {
  switch (code) {
    case EventsErrorCode.EVENT_NOT_FOUND:
    case EventsErrorCode.TRACE_NOT_FOUND:
      return 404;
    case EventsErrorCode.INVALID_CURSOR:
      return 400;
    default:
      return assertUnreachable(code);
  }
}

export class EventsException extends DomainException {
  readonly status: number;

  constructor(code: EventsErrorCode, message: string) {
    super(
      code,
      message,
      code === EventsErrorCode.INVALID_CURSOR ? [{ field: 'cursor', message }] : undefined,
    );
    this.status = statusOf(code);
  }
}
