/** D19: the headers of a webhook delivery (lower case, as Node presents them). */
export const WEBHOOK_HEADERS = {
  eventType: 'x-svc-event-type',
  deliveryId: 'x-svc-delivery-id',
  timestamp: 'x-svc-timestamp',
  signature: 'x-svc-signature',
} as const;

/** The event type of an A2A push the relay delivers to the calling agent (traffic.md T43). */
export const A2A_PUSH_EVENT_TYPE = 'A2A_PUSH_NOTIFICATION';

export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

export const REFRESH_EVENT_TYPES: readonly string[] = [
  'SUBSCRIPTION_CHANGED',
  'AGENT_LIFECYCLE',
  'TENANT_LIFECYCLE',
  'MCP_GRANTS_CHANGED',
];

export type HeaderBag = Headers | Record<string, string | readonly string[] | undefined>;

export function headerValues(headers: HeaderBag, name: string): string[] {
  if (headers instanceof Headers) {
    const value = headers.get(name);
    return value === null ? [] : [value];
  }
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted && value !== undefined) {
      values.push(...(typeof value === 'string' ? [value] : value));
    }
  }
  return values;
}
