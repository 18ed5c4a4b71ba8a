import { Controller, Get, Inject, Param, ParseUUIDPipe, Query } from '@nestjs/common';
import { CurrentPrincipal, Principal, RequirePermission } from '@agp/auth';

import { AuditEventResponseDto } from './dto/audit-event-response.dto';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { EventPage, EventsService, TraceResponse } from './events.service';

@Controller('audit/v1')
@RequirePermission('AUDIT', 'READ')
export class EventsController {
  constructor(@Inject(EventsService) private readonly events: EventsService) {}

  @Get('events')
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListEventsQueryDto,
  ): Promise<EventPage> {
    return this.events.list(principal.tenantId, query);
  }

  @Get('events/:id')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new ParseUUIDPipe()) id: string,
  ): Promise<AuditEventResponseDto> {
    return this.events.get(principal.tenantId, id);
  }

  @Get('traces/:correlationId')
  trace(
    @CurrentPrincipal() principal: Principal,
    @Param('correlationId') correlationId: string,
  ): Promise<TraceResponse> {
    return this.events.trace(principal.tenantId, correlationId);
  }
}
