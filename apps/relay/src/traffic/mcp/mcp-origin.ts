import { IncomingHttpHeaders } from 'node:http';

import { HttpProblem } from '@agp/http';

/** T85: Streamable HTTP requires `Origin` checks (DNS rebinding); no Origin is no browser. */
export function refuseForeignOrigin(
  headers: IncomingHttpHeaders,
  allowed: readonly string[],
): void {
  const origin = headers.origin;
  if (origin === undefined) {
    return;
  }
  const seen = normalizedOrigin(String(origin));
  if (seen !== undefined && allowed.some((a) => normalizedOrigin(a) === seen)) {
    return;
  }
  throw new HttpProblem(
    403,
    'forbidden-origin',
    `requests from the origin ${JSON.stringify(String(origin))} are not allowed on this MCP path`,
  );
}

/** `https://Host:443` and `https://host` are one origin; `null` and anything unparsable none. */
export function normalizedOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
