import { Controller, Get, Inject, OnModuleInit, Param, Query } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Ctx, RequestContext, RequirePermission } from '@agp/auth';
import { FastifyInstance } from 'fastify';

import { ListLogsQueryDto, ListSpansQueryDto } from './dto/telemetry-query.dto';
import { TelemetryQueryService } from './telemetry-query.service';
import { LogPage, SpanPage, TraceView } from './telemetry-views';
import { registerAttributeQuery } from './attribute-query';

/** D46, D54: an agent's spans and logs, beside the audit trail (TELEMETRY:READ). */
@Controller('audit/v1/telemetry')
@RequirePermission('TELEMETRY', 'READ')
export class TelemetryQueryController implements OnModuleInit {
  constructor(
    @Inject(TelemetryQueryService) private readonly telemetry: TelemetryQueryService,
    @Inject(HttpAdapterHost) private readonly adapter: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter?.getInstance<FastifyInstance>();
    if (fastify) {
      registerAttributeQuery(fastify);
    }
  }

  @Get('traces/:traceId')
  trace(@Ctx() ctx: RequestContext, @Param('traceId') traceId: string): Promise<TraceView> {
    return this.telemetry.trace(ctx.tenantId, traceId);
  }

  @Get('spans')
  spans(@Ctx() ctx: RequestContext, @Query() query: ListSpansQueryDto): Promise<SpanPage> {
    return this.telemetry.spans(ctx.tenantId, query);
  }

  @Get('logs')
  logs(@Ctx() ctx: RequestContext, @Query() query: ListLogsQueryDto): Promise<LogPage> {
    return this.telemetry.logs(ctx.tenantId, query);
  }
}
