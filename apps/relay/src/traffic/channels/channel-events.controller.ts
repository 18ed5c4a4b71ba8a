import { Controller, Get, Options, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { Public } from '@agp/auth';
import { correlationIdOf, uuidParam } from '@agp/http';
import { FastifyReply, FastifyRequest } from 'fastify';

import { rawBodyOf } from '../pipeline/json-rpc-body';
import { ChannelIntake, IntakeAnswer } from './channel-intake.service';

/** D43, D56: public to the guards; each kind's own signing authenticates the platform. */
@Controller('relay/channels')
export class ChannelEventsController {
  constructor(private readonly intake: ChannelIntake) {}

  @Public()
  @Post(':channelId/events')
  async receive(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('channelId', uuidParam('channelId')) channelId: string,
  ): Promise<void> {
    const answer = await this.intake.receive({
      channelId,
      headers: request.headers,
      rawBody: rawBodyOf(request),
      body: request.body,
      correlationId: correlationIdOf(request.raw),
    });
    send(reply, answer);
  }

  /** CH9: the embedded chat reads the agent's reply. */
  @Public()
  @Get(':channelId/events/:eventId')
  async reply(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('channelId', uuidParam('channelId')) channelId: string,
    @Param('eventId', uuidParam('eventId')) eventId: string,
  ): Promise<void> {
    send(reply, await this.intake.reply(channelId, eventId, request.headers));
  }

  // A browser's CORS preflight (CH9), not an operation of the interface: left out of the OpenAPI.
  @ApiExcludeEndpoint()
  @Public()
  @Options(':channelId/events')
  async preflight(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('channelId', uuidParam('channelId')) channelId: string,
  ): Promise<void> {
    send(reply, await this.intake.preflight(channelId, request.headers.origin));
  }

  @ApiExcludeEndpoint()
  @Public()
  @Options(':channelId/events/:eventId')
  async preflightReply(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('channelId', uuidParam('channelId')) channelId: string,
  ): Promise<void> {
    send(reply, await this.intake.preflight(channelId, request.headers.origin));
  }
}

function send(reply: FastifyReply, answer: IntakeAnswer): void {
  void reply.status(answer.status).headers(answer.headers).send(answer.body);
}
