import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { Created, uuidParam } from '@agp/http';

import { ChangeListingDto } from './dto/change-listing.dto';
import {
  ChangeInstallationDto,
  InstallListingDto,
  ListInstallationsQueryDto,
} from './dto/installation.dto';
import { ListListingsQueryDto } from './dto/list-listings-query.dto';
import { PublishListingDto } from './dto/publish-listing.dto';
import { InstallationLicences, LicenceView } from './installation-licences';
import { InstallationResponse, InstallationsService } from './installations.service';
import { ListingResponse, ListingsService } from './listings.service';

/**
 * D47, D59: listings and installations. Reading needs REGISTRY:READ; writing needs WRITE on the
 * listing kind's registry (REGISTRY for agents, MCP_REGISTRY for MCP servers), checked by the
 * services since the kind is the listing's (MK13).
 */
@Controller('relay/v1/marketplace')
export class MarketplaceController {
  constructor(
    private readonly listings: ListingsService,
    private readonly installations: InstallationsService,
    private readonly licensing: InstallationLicences,
  ) {}

  @Post('listings')
  @Created()
  @RequirePermission('REGISTRY', 'READ')
  publish(@Ctx() ctx: RequestContext, @Body() dto: PublishListingDto): Promise<ListingResponse> {
    return this.listings.publish(ctx, dto);
  }

  @Get('listings')
  @RequirePermission('REGISTRY', 'READ')
  list(
    @Ctx() ctx: RequestContext,
    @Query() query: ListListingsQueryDto,
  ): Promise<{ items: ListingResponse[]; nextCursor?: string }> {
    return this.listings.list(ctx, query);
  }

  @Get('listings/:listingId')
  @RequirePermission('REGISTRY', 'READ')
  get(
    @Ctx() ctx: RequestContext,
    @Param('listingId', uuidParam('listingId')) id: string,
  ): Promise<ListingResponse> {
    return this.listings.get(ctx, id);
  }

  @Patch('listings/:listingId')
  @RequirePermission('REGISTRY', 'READ')
  change(
    @Ctx() ctx: RequestContext,
    @Param('listingId', uuidParam('listingId')) id: string,
    @Body() dto: ChangeListingDto,
  ): Promise<ListingResponse> {
    return this.listings.change(ctx, id, dto);
  }

  @Delete('listings/:listingId')
  @HttpCode(204)
  @RequirePermission('REGISTRY', 'READ')
  unpublish(
    @Ctx() ctx: RequestContext,
    @Param('listingId', uuidParam('listingId')) id: string,
  ): Promise<void> {
    return this.listings.unpublish(ctx, id);
  }

  @Post('listings/:listingId/installations')
  @Created()
  @RequirePermission('REGISTRY', 'READ')
  install(
    @Ctx() ctx: RequestContext,
    @Param('listingId', uuidParam('listingId')) id: string,
    @Body() dto: InstallListingDto,
  ): Promise<{ installationId: string; agentId?: string; mcpServerId?: string; licence?: string }> {
    return this.installations.install(ctx, id, dto);
  }

  @Get('installations')
  @RequirePermission('REGISTRY', 'READ')
  installs(
    @Ctx() ctx: RequestContext,
    @Query() query: ListInstallationsQueryDto,
  ): Promise<{ items: InstallationResponse[]; nextCursor?: string }> {
    return this.installations.list(ctx, query);
  }

  @Get('installations/:installationId')
  @RequirePermission('REGISTRY', 'READ')
  installation(
    @Ctx() ctx: RequestContext,
    @Param('installationId', uuidParam('installationId')) id: string,
  ): Promise<InstallationResponse> {
    return this.installations.get(ctx, id);
  }

  /** MK35: an installed MCP listing's `server.json`, naming the installer's relay path. */
  @Get('installations/:installationId/server.json')
  @RequirePermission('REGISTRY', 'READ')
  serverJson(
    @Ctx() ctx: RequestContext,
    @Param('installationId', uuidParam('installationId')) id: string,
  ): Promise<Record<string, unknown>> {
    return this.installations.serverJson(ctx, id);
  }

  @Patch('installations/:installationId')
  @RequirePermission('REGISTRY', 'READ')
  changeInstallation(
    @Ctx() ctx: RequestContext,
    @Param('installationId', uuidParam('installationId')) id: string,
    @Body() dto: ChangeInstallationDto,
  ): Promise<InstallationResponse> {
    return this.installations.changeStatus(ctx, id, dto);
  }

  @Delete('installations/:installationId')
  @HttpCode(204)
  @RequirePermission('REGISTRY', 'READ')
  remove(
    @Ctx() ctx: RequestContext,
    @Param('installationId', uuidParam('installationId')) id: string,
  ): Promise<void> {
    return this.installations.remove(ctx, id);
  }

  /** MK25: the installer renews its licence. */
  @Post('installations/:installationId/licences')
  @Created()
  @RequirePermission('REGISTRY', 'READ')
  renew(
    @Ctx() ctx: RequestContext,
    @Param('installationId', uuidParam('installationId')) id: string,
  ): Promise<LicenceView> {
    return this.licensing.renewLicence(ctx, id);
  }

  @Get('installations/:installationId/licences')
  @RequirePermission('REGISTRY', 'READ')
  licences(
    @Ctx() ctx: RequestContext,
    @Param('installationId', uuidParam('installationId')) id: string,
  ): Promise<{ items: LicenceView[] }> {
    return this.licensing.licencesOf(ctx, id);
  }
}
