import { domainException } from '@agp/http';

export enum EventsErrorCode {
  EVENT_NOT_FOUND = 'event-not-found',
  TRACE_NOT_FOUND = 'trace-not-found',
  INVALID_CURSOR = 'invalid-cursor',
}

export class EventsException extends domainException<EventsErrorCode>({
  [EventsErrorCode.EVENT_NOT_FOUND]: 404,
  [EventsErrorCode.TRACE_NOT_FOUND]: 404,
  [EventsErrorCode.INVALID_CURSOR]: 400,
}) {
  constructor(code: EventsErrorCode, message: string) {
    super(
      code,
      message,
      code === EventsErrorCode.INVALID_CURSOR ? [{ field: 'cursor', message }] : undefined,
    );
  }
}
