import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EventParty } from '@agp/contracts';
import { Tx } from '@agp/database';

import { AuditEnvelope, IngestedEvents } from '../ingest/ingested-events';
import { IndexedHop, groupHops } from './conversation-grouping';
import { ConversationIndexRepository } from './conversation-index.repository';

/** The events that are hops: a decided hop, and the two refusals made before any policy. */
const HOP_TYPES = new Set(['COMMUNICATION_AUDIT', 'SKILL_RESTRICTION', 'RATE_LIMIT']);
const PARTY_TYPES = new Set(['AGENT', 'USER', 'CHANNEL', 'MCP_SERVER']);
/** A key longer than this is not one the relay made (CV2); the hop is indexed without it. */
const MAX_KEY_CHARS = 600;

/**
 * D44, conversations.md CV4: each hop the relay records joins its conversation in the ingest's
 * transaction (M16), so a conversation is never ahead of or behind the trail it reads.
 */
@Injectable()
export class ConversationIndexer implements OnModuleInit {
  constructor(
    @Inject(IngestedEvents) private readonly ingested: IngestedEvents,
    private readonly index: ConversationIndexRepository,
  ) {}

  onModuleInit(): void {
    // A32: a batch without a hop that names a conversation costs the index nothing.
    this.ingested.observe(
      'conversations',
      (tx, envelopes) => this.indexHops(tx, envelopes),
      namesConversation,
    );
  }

  /** A31, A56: two statements per batch (lock and known keys, one write), however many hops. */
  async indexHops(tx: Tx, envelopes: AuditEnvelope[]): Promise<void> {
    const hops = envelopes.map(indexedHopOf).filter((hop): hop is IndexedHop => !!hop);
    if (hops.length === 0) {
      return;
    }
    const tenants = [...new Set(hops.map((h) => h.tenantId))];
    const known = await this.index.lockAndReadKeys(tx, tenants, [
      ...new Set(hops.flatMap((h) => h.keys)),
    ]);
    await this.index.save(tx, groupHops(hops, known));
  }
}

/** What `indexedHopOf` reads first: a hop event that carries conversation keys. */
function namesConversation(envelope: AuditEnvelope): boolean {
  return (
    HOP_TYPES.has(String(envelope.type)) &&
    Array.isArray(envelope.data.details?.conversationKeys) &&
    !!envelope.data.protocol
  );
}

export function indexedHopOf(envelope: AuditEnvelope): IndexedHop | undefined {
  const data = envelope.data;
  const keys = data.details?.conversationKeys;
  if (!namesConversation(envelope) || !Array.isArray(keys) || !data.protocol) {
    return undefined;
  }
  const valid = keys.filter(
    (k): k is string => typeof k === 'string' && k.includes(':') && k.length <= MAX_KEY_CHARS,
  );
  if (valid.length === 0) {
    return undefined;
  }
  const parties = [data.actor, data.source, data.sink]
    .filter((p): p is EventParty => !!p?.id && PARTY_TYPES.has(p.type))
    .map((p) => `${p.type}:${p.id}`);
  return {
    eventId: envelope.id.toLowerCase(),
    tenantId: envelope.tenantId.toLowerCase(),
    occurredAt: new Date(envelope.occurredAt).toISOString(),
    protocol: data.protocol,
    keys: valid,
    parties: [...new Set(parties)],
  };
}
