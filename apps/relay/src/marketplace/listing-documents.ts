import { HttpProblem } from '@agp/http';

import { AgentCardJson, proxiedCard } from '../traffic/a2a/agent-card';

/** The MCP registry's `server.json` schema the listings speak (MK3). */
export const SERVER_JSON_SCHEMA =
  'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json';

/**
 * MK4: a listing's card names no upstream: its interfaces point at the listing itself (an
 * installed entry's card points at the entry's relay path), and the publisher's own schemes go.
 */
export function listedCard(
  card: AgentCardJson,
  listingUrl: string,
  tokenUrl: string,
): AgentCardJson {
  return proxiedCard(card, listingUrl, tokenUrl);
}

/**
 * MK3, MK4: `server.json` as the MCP registry defines it (`name`, `description`, `version`);
 * `remotes` and `packages` say where the publisher runs it, so they are not kept: an installed
 * listing is served with the installer's relay path as its one remote.
 */
export function listedServerJson(
  given: Record<string, unknown> | undefined,
  fallback: { name: string; description?: string },
): Record<string, unknown> {
  const doc: Record<string, unknown> = given
    ? { ...given }
    : {
        name: `agp/${fallback.name.replace(/[^A-Za-z0-9._-]/g, '-')}`,
        description: fallback.description ?? fallback.name,
        version: '1.0.0',
      };
  const errors: Array<{ field: string; message: string }> = [];
  for (const field of ['name', 'description', 'version'] as const) {
    if (typeof doc[field] !== 'string' || doc[field].length === 0) {
      errors.push({ field: `serverJson.${field}`, message: `${field} must be a non-empty string` });
    }
  }
  if (typeof doc.name === 'string' && !/^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/.test(doc.name)) {
    errors.push({ field: 'serverJson.name', message: 'name must be namespace/name (server.json)' });
  }
  if (errors.length > 0) {
    throw HttpProblem.validation(errors);
  }
  delete doc.remotes;
  delete doc.packages;
  return { $schema: SERVER_JSON_SCHEMA, ...doc };
}

/** `server.json` of an installed listing: one streamable HTTP remote, the relay's (MK3). */
export function servedServerJson(
  doc: Record<string, unknown>,
  relayUrl: string,
): Record<string, unknown> {
  return { ...doc, remotes: [{ type: 'streamable-http', url: relayUrl }] };
}
