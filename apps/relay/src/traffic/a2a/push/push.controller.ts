import { Controller, HttpCode, OnModuleInit, Param, Post, Req } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Public } from '@agp/auth';
import { correlationIdOf, uuidParam } from '@agp/http';
import { FastifyInstance, FastifyRequest } from 'fastify';

import { PushReceiver } from './push-receiver';

/** A2A 1.0's media type, in which the official SDK's sender posts pushes. */
const A2A_JSON = 'application/a2a+json';

/** T40, T41: public to the global guard: the target holds no platform token, only ours. */
@Controller('relay/a2a-push')
export class PushController implements OnModuleInit {
  constructor(
    private readonly receiver: PushReceiver,
    private readonly adapter: HttpAdapterHost,
  ) {}

  /** Fastify parses only `application/json` unless told: A2A 1.0 pushes come as `a2a+json`. */
  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter?.getInstance<FastifyInstance>();
    if (fastify && !fastify.hasContentTypeParser(A2A_JSON)) {
      fastify.addContentTypeParser(
        A2A_JSON,
        { parseAs: 'string' },
        fastify.getDefaultJsonParser('error', 'error'),
      );
    }
  }

  @Public()
  @Post(':pushId')
  @HttpCode(202)
  receive(
    @Req() request: FastifyRequest,
    @Param('pushId', uuidParam('pushId')) callbackId: string,
  ): Promise<{ deliveryId: string }> {
    return this.receiver.receive({
      callbackId,
      headers: request.headers,
      body: request.body,
      correlationId: correlationIdOf(request.raw),
    });
  }
}
