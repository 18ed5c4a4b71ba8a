import { Module } from '@nestjs/common';

import { upstreamCatalogProvider } from '../registry/upstream-catalog.service';
import { CredentialCipher } from './credential-cipher';
import { DEFAULT_CREDENTIAL_HEADER } from './upstream-credential';
import { MCP_SERVERS_CATALOG } from './mcp-servers.constants';
import { McpServersController } from './mcp-servers.controller';
import { refuseRemovingMember, shapedMcpServer } from './virtual/virtual-server-shape';

const catalog = upstreamCatalogProvider(
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
      members: 'members',
      visibility: 'visibility',
    },
    integers: ['timeoutMs'],
    objects: ['members'],
    // D37: the sealed credential never leaves the repository; responses say only that one is set.
    writeOnly: ['credential'],
    hasVisibility: true,
    defaults: { credentialHeader: DEFAULT_CREDENTIAL_HEADER },
  },
  {
    noun: 'MCP server',
    lifecycleEvent: 'MCP_LIFECYCLE',
    partyType: 'MCP_SERVER',
    prepare: shapedMcpServer,
    beforeRemove: refuseRemovingMember,
  },
  // D37: the URL checked against the egress rules, the credential sealed before it is stored.
  { url: 'url', secret: 'credential' },
);

/** D37: exports the CredentialCipher the traffic paths open upstream credentials with. */
@Module({
  controllers: [McpServersController],
  providers: [catalog, CredentialCipher],
  exports: [CredentialCipher],
})
export class McpServersModule {}
