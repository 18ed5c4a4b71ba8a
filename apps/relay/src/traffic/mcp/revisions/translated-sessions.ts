import { createHash } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../../../database/tokens';
import { McpCall } from '../mcp-call';
import {
  TranslatedSessionKey,
  TranslatedSessionState,
  TranslatedSessionsRepository,
} from './translated-sessions.repository';

/**
 * T104: a minted session id says what the client declared at `initialize` (T97); what it sets
 * later (`logging/setLevel`, `resources/subscribe`) is kept here, so any replica carries it.
 */
@Injectable()
export class TranslatedSessions {
  private readonly repository = new TranslatedSessionsRepository();

  constructor(@Inject(RELAY_DATABASE) private readonly database: Database) {}

  stateOf(call: McpCall): Promise<TranslatedSessionState> {
    return this.database.inTenant(call.tenantId, (tx) => this.repository.find(tx, keyOf(call)));
  }

  async setLogLevel(call: McpCall, level: string): Promise<void> {
    await this.forgetUnused();
    return this.database.inTenant(call.tenantId, (tx) =>
      this.repository.setLogLevel(tx, keyOf(call), level),
    );
  }

  async subscribe(call: McpCall, uri: string, isSubscribed: boolean): Promise<void> {
    await this.forgetUnused();
    return this.database.inTenant(call.tenantId, (tx) =>
      this.repository.subscribe(tx, keyOf(call), uri, isSubscribed),
    );
  }

  /** The client's DELETE ends what was kept of its session. */
  forget(call: McpCall): Promise<void> {
    return this.database.inTenant(call.tenantId, (tx) => this.repository.forget(tx, keyOf(call)));
  }

  /** Every tenant's unused sessions, as the system: RLS would confine the sweep to this one's. */
  private forgetUnused(): Promise<void> {
    return this.database.asSystem((tx) => this.repository.forgetUnused(tx));
  }
}

/** The minted id is the client's declaration (and a nonce): long, so it is keyed by digest. */
function keyOf(call: McpCall): TranslatedSessionKey {
  const sessionKey = createHash('sha256')
    .update(String(call.agentHeaders['mcp-session-id'] ?? ''))
    .digest('base64url');
  return { tenantId: call.tenantId, partyId: call.agentId, sessionKey };
}
