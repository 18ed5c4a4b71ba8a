import { createHash } from 'node:crypto';

import { ConversationFamily, ConversationKeyKind } from '@agp/contracts';

/** One hop as the index sees it: its keys in D44's order and who took part. */
export interface IndexedHop {
  eventId: string;
  tenantId: string;
  occurredAt: string;
  protocol: string;
  keys: string[];
  /** `AGENT:id`, `USER:id`, `CHANNEL:id`, `MCP_SERVER:id`. */
  parties: string[];
}

/** What one batch adds to a conversation (CV5): merged into the stored row by the repository. */
export interface ConversationDelta {
  tenantId: string;
  id: string;
  keyKind: ConversationKeyKind;
  key: string;
  startedAt: string;
  lastAt: string;
  hopCount: number;
  protocols: Set<string>;
  parties: Set<string>;
  families: Set<ConversationFamily>;
}

export interface Grouping {
  hops: Array<IndexedHop & { conversationId: string; family: ConversationFamily }>;
  /** Keys first seen in this batch, each with the conversation it now names. */
  newKeys: Array<{ tenantId: string; key: string; conversationId: string }>;
  conversations: ConversationDelta[];
}

/** CV6: MCP hops are read under MCP_CONVERSATIONS, every other path under AGENT_CONVERSATIONS. */
export function familyOf(protocol: string): ConversationFamily {
  return protocol === 'MCP' ? 'MCP' : 'AGENT';
}

/** CV3: a conversation's id is the tenant's first key as a UUID, the same on every replica. */
export function conversationIdOf(tenantId: string, key: string): string {
  const hex = createHash('sha256').update(`${tenantId}\n${key}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function mapKey(tenantId: string, key: string): string {
  return `${tenantId}\n${key}`;
}

/**
 * CV3: a hop joins the conversation its correlation id already names (an agent's MCP call made
 * under the correlation id of the message it serves joins that message's conversation), else the
 * one the first of its other keys names (in D44's order); a hop with no known key starts one,
 * keyed by its first key. Every key of the hop then names it, unless it already names another.
 */
export function groupHops(hops: IndexedHop[], known: Map<string, string>): Grouping {
  const names = new Map(known);
  const newKeys: Grouping['newKeys'] = [];
  const deltas = new Map<string, ConversationDelta>();
  const sorted = [...hops].sort(
    (a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.eventId.localeCompare(b.eventId),
  );
  const grouped: Grouping['hops'] = [];
  for (const hop of sorted) {
    const found = lookupOrder(hop.keys)
      .map((key) => names.get(mapKey(hop.tenantId, key)))
      .find(Boolean);
    const conversationId = found ?? conversationIdOf(hop.tenantId, hop.keys[0]);
    for (const key of hop.keys) {
      if (!names.has(mapKey(hop.tenantId, key))) {
        names.set(mapKey(hop.tenantId, key), conversationId);
        newKeys.push({ tenantId: hop.tenantId, key, conversationId });
      }
    }
    const family = familyOf(hop.protocol);
    const delta = deltas.get(conversationId) ?? startDelta(hop, conversationId);
    delta.lastAt = hop.occurredAt;
    delta.hopCount += 1;
    delta.protocols.add(hop.protocol);
    delta.families.add(family);
    hop.parties.forEach((party) => delta.parties.add(party));
    deltas.set(conversationId, delta);
    grouped.push({ ...hop, conversationId, family });
  }
  return { hops: grouped, newKeys, conversations: [...deltas.values()] };
}

function lookupOrder(keys: string[]): string[] {
  const isCorrelation = (key: string): boolean => key.startsWith('CORRELATION:');
  return [...keys.filter(isCorrelation), ...keys.filter((key) => !isCorrelation(key))];
}

function startDelta(hop: IndexedHop, id: string): ConversationDelta {
  const [kind, ...rest] = hop.keys[0].split(':');
  return {
    tenantId: hop.tenantId,
    id,
    keyKind: kind as ConversationKeyKind,
    key: rest.join(':'),
    startedAt: hop.occurredAt,
    lastAt: hop.occurredAt,
    hopCount: 0,
    protocols: new Set(),
    parties: new Set(),
    families: new Set(),
  };
}
