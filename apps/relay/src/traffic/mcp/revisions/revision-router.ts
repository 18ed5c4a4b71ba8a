import { IncomingHttpHeaders } from 'node:http';

import { Injectable } from '@nestjs/common';

import { JsonRpcMessage } from '../json-rpc';
import { McpCall } from '../mcp-call';
import { McpAnswer } from '../mcp-exchange';
import { AskedFor } from '../mcp-messages';
import { PaidCall } from '../../payments/paid-call';
import { LegacyClientBridge } from './legacy-client-bridge';
import { ModernClientBridge } from './modern-client-bridge';
import { McpServerEras } from './server-eras';
import { TranslatedSessions } from './translated-sessions';
import { clientEraOf, isTranslatedSession } from './revision-wire';

/** How the relay carries one message to the server: as it came, or in the server's revision. */
export interface RevisionBridge {
  forward(
    call: McpCall,
    message: JsonRpcMessage,
    askedFor: AskedFor | undefined,
    /** payments.md PY19: the call's x402 side, carried across revisions. */
    paid?: PaidCall,
  ): Promise<McpAnswer>;
}

/**
 * T98: a message goes as it came when the server speaks the client's revision (a server that
 * speaks both, like the conformance suite's, is never translated); otherwise it is translated.
 * Only a 2026 request or a 2025 `initialize` needs to know the server's revisions, and that is
 * learnt once per server (cached, T98).
 */
@Injectable()
export class McpRevisionRouter {
  constructor(
    private readonly eras: McpServerEras,
    private readonly legacyClients: LegacyClientBridge,
    private readonly modernClients: ModernClientBridge,
    private readonly sessions: TranslatedSessions,
  ) {}

  async bridgeFor(
    call: McpCall,
    headers: IncomingHttpHeaders,
    message: JsonRpcMessage,
  ): Promise<RevisionBridge | undefined> {
    if (isTranslatedSession(headers)) {
      return this.legacyClients;
    }
    const era = clientEraOf(headers, [message]);
    if (era === 'legacy' && message.method !== 'initialize') {
      return undefined;
    }
    const server = await this.eras.of(call);
    if (era === 'modern') {
      return !server.modern && server.legacy ? this.modernClients : undefined;
    }
    return server.modern && !server.legacy ? this.legacyClients : undefined;
  }

  /** A 2025 client's GET stream in a session the relay minted (T100). */
  listen(call: McpCall, headers: IncomingHttpHeaders): Promise<McpAnswer> | McpAnswer | undefined {
    return isTranslatedSession(headers) ? this.legacyClients.listen(call) : undefined;
  }

  /** DELETE of a session the relay minted: nothing upstream to end, what it set is forgotten. */
  async end(call: McpCall, headers: IncomingHttpHeaders): Promise<McpAnswer | undefined> {
    if (!isTranslatedSession(headers)) {
      return undefined;
    }
    await this.sessions.forget(call);
    return { kind: 'empty', status: 200 };
  }
}
