import { Controller, Delete, Get, Inject, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { AUTH_AUDIENCES, Audiences } from '@agp/auth';
import { uuidParam } from '@agp/http';
import { FastifyReply } from 'fastify';

import { mcpCallerOf } from '../../mcp-users/mcp-party';
import { TrafficRequest, goneSignal, sendStream } from '../pipeline/traffic-intake';
import { McpAnswer } from './mcp-exchange';
import { McpRelayService } from './mcp-relay.service';

/** D20, D8, D32, T38, D43, R28: an agent's token, or a person's bound to this server. */
@Controller('relay/mcp')
export class McpController {
  private readonly logger = new Logger(McpController.name);

  constructor(
    private readonly relay: McpRelayService,
    @Inject(AUTH_AUDIENCES) private readonly audiences: Audiences,
  ) {}

  @Post(':mcpServerId')
  async post(
    @Req() request: TrafficRequest,
    @Res() reply: FastifyReply,
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
  ): Promise<void> {
    const caller = { ...mcpCallerOf(request, this.audiences), signal: goneSignal(reply) };
    await this.send(reply, await this.relay.post(caller, serverId, request.body));
  }

  @Get(':mcpServerId')
  async listen(
    @Req() request: TrafficRequest,
    @Res() reply: FastifyReply,
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
  ): Promise<void> {
    await this.send(reply, await this.relay.listen(mcpCallerOf(request, this.audiences), serverId));
  }

  @Delete(':mcpServerId')
  async end(
    @Req() request: TrafficRequest,
    @Res() reply: FastifyReply,
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
  ): Promise<void> {
    await this.send(reply, await this.relay.end(mcpCallerOf(request, this.audiences), serverId));
  }

  private async send(reply: FastifyReply, answer: McpAnswer): Promise<void> {
    if (answer.kind === 'raw') {
      await reply.status(answer.status).headers(answer.headers).send(answer.body);
      return;
    }
    if (answer.kind !== 'stream') {
      reply.status(answer.status).headers(answer.headers ?? {});
      await (answer.kind === 'json'
        ? reply.type('application/json').send(answer.body)
        : reply.send());
      return;
    }
    await sendStream(reply, answer, this.logger);
  }
}
