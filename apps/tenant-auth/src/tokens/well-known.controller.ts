import { Controller, Get } from '@nestjs/common';
import { Public } from '@agp/auth';

import { DiscoveryDocument, DiscoveryService } from './discovery.service';

// identity.md I25: the discovery document where an MCP client looks first for the issuer
// `{base_url}/tenant-auth/v1`: RFC 8414 §3.1 inserts the well-known name between the host and the
// issuer's path, and OpenID Connect's form the same way; the gateway forwards both here.
@Controller('.well-known')
export class WellKnownController {
  constructor(private readonly discovery: DiscoveryService) {}

  @Public()
  @Get('oauth-authorization-server/tenant-auth/v1')
  authorizationServer(): DiscoveryDocument {
    return this.discovery.document();
  }

  @Public()
  @Get('openid-configuration/tenant-auth/v1')
  openIdConfiguration(): DiscoveryDocument {
    return this.discovery.document();
  }
}
