import { isDeepStrictEqual } from 'node:util';

/** An A2A agent card as JSON: protocol 1.0 (`supportedInterfaces`) or 0.3 (`url`). */
export type AgentCardJson = Record<string, unknown>;

/** Where the relay sends an agent's JSON-RPC traffic, read from its card (D38). */
export interface A2aEndpoint {
  url: string;
  /** The A2A protocol version of that interface (`1.0`, `0.3`). */
  protocolVersion: string;
}

/** The scope whose tokens carry the relay audience `{base_url}/relay` (D8). */
export const RELAY_SCOPE = 'mcp:call';
export const PLATFORM_SCHEME = 'agp_oauth2';

const JSONRPC = 'JSONRPC';

type Interface = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isJsonRpc(value: unknown): value is Interface {
  if (!isRecord(value) || typeof value.url !== 'string') {
    return false;
  }
  const binding = value.protocolBinding ?? value.transport;
  return typeof binding === 'string' && binding.toUpperCase() === JSONRPC;
}

/** Why a fetched document is not an agent card the relay can carry, or undefined when it is. */
export function invalidCard(card: unknown): string | undefined {
  if (!isRecord(card)) {
    return 'the agent card is not a JSON object';
  }
  if (typeof card.name !== 'string') {
    return 'the agent card has no name';
  }
  return endpointOf(card) ? undefined : 'the agent card names no JSON-RPC interface';
}

/** D38: the relay speaks JSON-RPC only; A2A 1.0 and 0.3 place that endpoint differently. */
export function endpointOf(card: AgentCardJson): A2aEndpoint | undefined {
  if (Array.isArray(card.supportedInterfaces)) {
    const found = card.supportedInterfaces.find(isJsonRpc);
    if (found) {
      return { url: String(found.url), protocolVersion: versionOf(found.protocolVersion, '1.0') };
    }
  }
  const legacyVersion = versionOf(card.protocolVersion, '0.3');
  const preferred =
    typeof card.preferredTransport === 'string' ? card.preferredTransport.toUpperCase() : JSONRPC;
  if (typeof card.url === 'string' && preferred === JSONRPC) {
    return { url: card.url, protocolVersion: legacyVersion };
  }
  const additional = Array.isArray(card.additionalInterfaces)
    ? card.additionalInterfaces.find(isJsonRpc)
    : undefined;
  return additional ? { url: String(additional.url), protocolVersion: legacyVersion } : undefined;
}

function versionOf(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.length > 0 ? value : fallback;
}

/**
 * D38: JSON-RPC only, since other interfaces would bypass the relay; the agent's own schemes and
 * signatures are dropped: they no longer describe what callers talk to.
 */
export function proxiedCard(
  card: AgentCardJson,
  relayUrl: string,
  tokenUrl: string,
): AgentCardJson {
  const scopes = { [RELAY_SCOPE]: 'call agents, MCP servers and LLM gateways through the relay' };
  const flows = { clientCredentials: { tokenUrl, scopes } };
  const copy: AgentCardJson = { ...card };
  delete copy.signatures;
  if (isRecord(card.capabilities)) {
    // T44: pushes reach callers only through the relay, which carries them when the agent sends them.
    copy.capabilities = {
      ...card.capabilities,
      pushNotifications: card.capabilities.pushNotifications === true,
    };
  }
  if (Array.isArray(card.skills)) {
    copy.skills = (card.skills as unknown[]).map((skill): unknown => {
      if (!isRecord(skill)) {
        return skill;
      }
      const { security: _s, securityRequirements: _r, ...rest } = skill;
      return rest;
    });
  }
  if (Array.isArray(card.supportedInterfaces)) {
    copy.supportedInterfaces = card.supportedInterfaces
      .filter(isJsonRpc)
      .map((i) => ({ ...i, url: relayUrl, tenant: '' }));
    copy.securitySchemes = {
      [PLATFORM_SCHEME]: {
        oauth2SecurityScheme: { description: 'the platform token endpoint', flows },
      },
    };
    copy.securityRequirements = [{ schemes: { [PLATFORM_SCHEME]: { list: [RELAY_SCOPE] } } }];
    delete copy.security;
  }
  if (typeof card.url === 'string' || !Array.isArray(card.supportedInterfaces)) {
    copy.url = relayUrl;
    copy.preferredTransport = JSONRPC;
    copy.additionalInterfaces = Array.isArray(card.additionalInterfaces)
      ? card.additionalInterfaces.filter(isJsonRpc).map((i) => ({ ...i, url: relayUrl }))
      : [];
    if (!Array.isArray(card.supportedInterfaces)) {
      copy.securitySchemes = { [PLATFORM_SCHEME]: { type: 'oauth2', flows } };
      copy.security = [{ [PLATFORM_SCHEME]: [RELAY_SCOPE] }];
    }
  }
  return copy;
}

/** D21: the top-level fields of the agent's card that differ between two fetches, sorted. */
export function changedFields(before: AgentCardJson | undefined, after: AgentCardJson): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]);
  return [...keys].filter((key) => !isDeepStrictEqual(before?.[key], after[key])).sort();
}
