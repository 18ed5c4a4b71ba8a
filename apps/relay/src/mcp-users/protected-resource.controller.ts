import { Controller, Get, Inject, Param } from '@nestjs/common';
import { AUTH_AUDIENCES, Audiences, Public } from '@agp/auth';
import { uuidParam } from '@agp/http';

import { PUBLIC_BASE_URL } from '../config/relay-config.module';

/** RFC 9728 §2: what a person's MCP client learns about an MCP server before it asks for a token. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: string[];
  resource_name: string;
}

/** D43, R28, RFC 9728 §3.1: public and the same for every id, so it reveals no server. */
@Controller('.well-known/oauth-protected-resource/relay/mcp')
export class ProtectedResourceController {
  constructor(
    @Inject(AUTH_AUDIENCES) private readonly audiences: Audiences,
    @Inject(PUBLIC_BASE_URL) private readonly publicBaseUrl: string,
  ) {}

  @Public()
  @Get(':mcpServerId')
  metadata(
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
  ): ProtectedResourceMetadata {
    return {
      resource: `${this.audiences.mcp}/mcp/${serverId.toLowerCase()}`,
      authorization_servers: [`${this.publicBaseUrl}/tenant-auth/v1`],
      scopes_supported: ['mcp:call'],
      bearer_methods_supported: ['header'],
      resource_name: 'MCP server governed by the Agent Governance Platform',
    };
  }
}
