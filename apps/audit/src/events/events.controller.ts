import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { uuidParam } from '@agp/http';

import { AuditEventResponseDto } from './dto/audit-event-response.dto';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { EventPage, EventsService, TraceResponse } from './events.service';

@Controller('audit/v1')
@RequirePermission('AUDIT', 'READ')
export class EventsController {
  constructor(@Inject(EventsService) private readonly events: EventsService) {}

  @Get('events')
  list(@Ctx() ctx: RequestContext, @Query() query: ListEventsQueryDto): Promise<EventPage> {
    return this.events.list(ctx.tenantId, query);
  }

  @Get('events/:id')
  get(
    @Ctx() ctx: RequestContext,
    @Param('id', uuidParam('id')) id: string,
  ): Promise<AuditEventResponseDto> {
    return this.events.get(ctx.tenantId, id);
  }

  @Get('traces/:correlationId')
  trace(
    @Ctx() ctx: RequestContext,
    @Param('correlationId') correlationId: string,
  ): Promise<TraceResponse> {
    return this.events.trace(ctx.tenantId, correlationId);
  }
}
