import { Controller, HttpCode, Inject, OnModuleInit, Post, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiResponse } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@agp/auth';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { OtlpBody, registerOtlpBodies } from '../otlp/otlp-body';
import { OtlpSignal, encodeResponse, responseObject } from '../otlp/otlp-proto';
import { ExportOutcome, TelemetryIngestService } from './telemetry-ingest.service';

/** The answer is an export response in the request's encoding (D12, D46, A21). */
@Controller('audit/v1/telemetry/v1')
@ApiResponse({
  status: 200,
  description: 'Stored; `partialSuccess` counts what was rejected and why.',
})
@ApiResponse({ status: 400, description: 'Not an export request in its encoding.' })
@ApiResponse({ status: 413, description: 'Over 4 MiB once decompressed (D54).' })
@ApiResponse({ status: 415, description: 'Neither protobuf nor JSON, or not gzip.' })
@ApiResponse({ status: 429, description: "Over the tenant's quota; see Retry-After." })
@ApiResponse({ status: 503, description: 'Busy; see Retry-After.' })
export class TelemetryIngestController implements OnModuleInit {
  constructor(
    @Inject(TelemetryIngestService) private readonly ingest: TelemetryIngestService,
    @Inject(HttpAdapterHost) private readonly adapter: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter?.getInstance<FastifyInstance>();
    if (fastify) {
      registerOtlpBodies(fastify);
    }
  }

  @Post('traces')
  @HttpCode(200)
  traces(
    @Ctx() ctx: RequestContext,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.answer('traces', ctx, request, reply);
  }

  @Post('logs')
  @HttpCode(200)
  logs(
    @Ctx() ctx: RequestContext,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    return this.answer('logs', ctx, request, reply);
  }

  private async answer(
    signal: OtlpSignal,
    ctx: RequestContext,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const body =
      request.body instanceof OtlpBody ? request.body : new OtlpBody(Buffer.alloc(0), 'protobuf');
    const outcome: ExportOutcome = await this.ingest.export(ctx.principal, signal, body);
    if (body.encoding === 'json') {
      await reply
        .code(200)
        .type('application/json')
        .send(JSON.stringify(responseObject(signal, outcome.partial)));
      return;
    }
    await reply
      .code(200)
      .type('application/x-protobuf')
      .send(Buffer.from(encodeResponse(signal, outcome.partial)));
  }
}
