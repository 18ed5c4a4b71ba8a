import { Module } from '@nestjs/common';

import { catalogProvider } from '../registry/catalog.provider';
import { CredentialCipher } from './credential-cipher';
import { DEFAULT_CREDENTIAL_HEADER } from './upstream-credential';
import { MCP_SERVERS_CATALOG } from './mcp-servers.constants';
import { McpServersController } from './mcp-servers.controller';
import { McpServersService } from './mcp-servers.service';

const catalog = catalogProvider(
  MCP_SERVERS_CATALOG,
  {
    table: 'mcp_servers',
    columns: {
      name: 'name',
      description: 'description',
      url: 'url',
      transport: 'transport',
      protocolVersion: 'protocol_version',
      credential: 'credential_ciphertext',
      credentialHeader: 'credential_header',
      timeoutMs: 'timeout_ms',
    },
    integers: ['timeoutMs'],
    // D37: the sealed credential never leaves the repository; responses say only that one is set.
    writeOnly: ['credential'],
    defaults: { credentialHeader: DEFAULT_CREDENTIAL_HEADER },
  },
  { noun: 'MCP server', lifecycleEvent: 'MCP_LIFECYCLE', partyType: 'MCP_SERVER' },
);

/**
 * MCP servers of the registry: CRUD under /relay/v1/mcp-servers, MCP_LIFECYCLE recorded. Exports
 * the CredentialCipher the traffic paths open upstream credentials with (D37).
 */
@Module({
  controllers: [McpServersController],
  providers: [catalog, CredentialCipher, McpServersService],
  exports: [CredentialCipher],
})
export class McpServersModule {}
