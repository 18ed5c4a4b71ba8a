import { Controller, Get, Query } from '@nestjs/common';
import { Ctx, RequestContext } from '@agp/auth';

import { DiscoveryService } from './discovery.service';
import { DiscoverAgentsQueryDto, DiscoverMcpServersQueryDto } from './dto/discovery-query.dto';
import { DiscoveredAgent, DiscoveredMcpServer, DiscoveryPage } from './dto/discovery-response';

/** D47, D59: an agent's token may search; a person needs the registry's read role (DS7). */
@Controller('relay/v1/discovery')
export class DiscoveryController {
  constructor(private readonly discovery: DiscoveryService) {}

  @Get('agents')
  agents(
    @Ctx() ctx: RequestContext,
    @Query() query: DiscoverAgentsQueryDto,
  ): Promise<DiscoveryPage<DiscoveredAgent>> {
    return this.discovery.agents(ctx, query);
  }

  @Get('mcp-servers')
  mcpServers(
    @Ctx() ctx: RequestContext,
    @Query() query: DiscoverMcpServersQueryDto,
  ): Promise<DiscoveryPage<DiscoveredMcpServer>> {
    return this.discovery.mcpServers(ctx, query);
  }
}
