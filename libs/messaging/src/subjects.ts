/** Names derived in one place; nobody writes a subject string by hand (STYLE.md §5). */
export function eventsStreamName(prefix: string): string {
  return `${prefix.toUpperCase()}_EVENTS`;
}

export function deadLetterStreamName(prefix: string): string {
  return `${prefix.toUpperCase()}_DLQ`;
}

export function eventSubject(prefix: string, type: string): string {
  return `${prefix}.events.${type}`;
}

export function deadLetterSubject(prefix: string, consumer: string): string {
  return `${prefix}.dlq.${consumer}`;
}

export function typeOfSubject(prefix: string, subject: string): string {
  return subject.slice(`${prefix}.events.`.length);
}

/** Where a query type is asked and answered (core NATS request-reply, not stored). */
export function querySubject(prefix: string, type: string): string {
  return `${prefix}.query.${type}`;
}
