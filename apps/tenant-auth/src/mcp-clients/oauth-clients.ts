import { randomBytes } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { BrowserClient, browserClients } from '../sign-in/browser-clients';
import { ClientMetadata } from './client-metadata';
import { McpClientsRepository } from './mcp-clients.repository';
import { MetadataDocumentError, MetadataDocumentFetcher } from './metadata-document-fetcher';

/** What a client_id came to: the client, or why a metadata document was refused. */
export type FoundClient = { client: BrowserClient } | { refused: string } | { unknown: true };

const REGISTERED_PREFIX = 'agp_dcr_';

/** I27: how long a registered client may sit unused (and without a live refresh token). */
export const REGISTERED_CLIENT_IDLE_DAYS = 90;

/** identity.md I21: who may ask for a person's token (I14, I24, RFC 7591). */
@Injectable()
export class OAuthClients {
  private readonly console: ReadonlyMap<string, BrowserClient>;
  private readonly fetcher: MetadataDocumentFetcher;

  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_ENV) env: TenantAuthEnv,
    private readonly repository: McpClientsRepository,
  ) {
    this.console = browserClients(env);
    this.fetcher = new MetadataDocumentFetcher(env.CLIENT_METADATA_ALLOW_PRIVATE);
  }

  async find(clientId: string): Promise<FoundClient> {
    const known = this.console.get(clientId);
    if (known) {
      return { client: known };
    }
    if (this.fetcher.isDocumentUrl(clientId)) {
      try {
        return { client: asClient(clientId, await this.document(clientId)) };
      } catch (error) {
        if (error instanceof MetadataDocumentError) {
          return { refused: error.message };
        }
        throw error;
      }
    }
    if (!clientId.startsWith(REGISTERED_PREFIX) || clientId.length > 100) {
      return { unknown: true };
    }
    // Asked for by the authorization and token endpoints only: each is a use (I27).
    const registered = await this.database.asSystem(async (tx) => {
      const found = await this.repository.findRegistered(tx, clientId);
      if (found) {
        await this.repository.markUsed(tx, clientId);
      }
      return found;
    });
    return registered ? { client: asClient(clientId, registered.metadata) } : { unknown: true };
  }

  /** RFC 7591 §3.2.1: the new client's id; its metadata was checked by the caller. */
  async register(metadata: ClientMetadata): Promise<string> {
    const clientId = `${REGISTERED_PREFIX}${randomBytes(18).toString('base64url')}`;
    await this.database.asSystem((tx) =>
      this.repository.insertRegistered(tx, { clientId, metadata }),
    );
    return clientId;
  }

  /** I27: housekeeping of dynamic registrations, once per interval across replicas (F30). */
  async pruneIdleRegistrations(): Promise<number> {
    return this.database.asSystem((tx) =>
      this.repository.pruneIdle(tx, REGISTERED_CLIENT_IDLE_DAYS),
    );
  }

  private async document(url: string): Promise<ClientMetadata> {
    const cached = await this.database.asSystem((tx) => this.repository.findDocument(tx, url));
    if (cached) {
      return cached;
    }
    const fetched = await this.fetcher.fetch(url);
    const expiresAt = new Date(Date.now() + fetched.maxAgeSec * 1000);
    await this.database.asSystem((tx) =>
      this.repository.saveDocument(tx, url, fetched.metadata, expiresAt),
    );
    return fetched.metadata;
  }
}

function asClient(clientId: string, metadata: ClientMetadata): BrowserClient {
  return {
    id: clientId,
    kind: 'MCP',
    name: metadata.client_name ?? clientId,
    redirectUris: new Set(metadata.redirect_uris),
    postLogoutRedirectUris: new Set(),
  };
}
