import { Controller, Delete, Get, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { HttpProblem, uuidParam } from '@agp/http';
import { FastifyReply } from 'fastify';

import {
  TrafficCaller,
  TrafficRequest,
  agentCallerOf,
  goneSignal,
  sendStream,
} from '../pipeline/traffic-intake';
import { McpAnswer } from './mcp-exchange';
import { McpRelayService } from './mcp-relay.service';

/**
 * D20: the MCP traffic path, `{base_url}/relay/mcp/{mcpServerId}`, MCP Streamable HTTP both ways.
 * The global guard has verified an `mcp:call` token (D8: audience `{base_url}/relay`); the handlers
 * only translate HTTP into a call of the relay and its answer back.
 */
@Controller('relay/mcp')
export class McpController {
  private readonly logger = new Logger(McpController.name);

  constructor(private readonly relay: McpRelayService) {}

  @Post(':mcpServerId')
  async post(
    @Req() request: TrafficRequest,
    @Res() reply: FastifyReply,
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
  ): Promise<void> {
    const caller = { ...callerOf(request), signal: goneSignal(reply) };
    await this.send(reply, await this.relay.post(caller, serverId, request.body));
  }

  @Get(':mcpServerId')
  async listen(
    @Req() request: TrafficRequest,
    @Res() reply: FastifyReply,
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
  ): Promise<void> {
    await this.send(reply, await this.relay.listen(callerOf(request), serverId));
  }

  @Delete(':mcpServerId')
  async end(
    @Req() request: TrafficRequest,
    @Res() reply: FastifyReply,
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
  ): Promise<void> {
    await this.send(reply, await this.relay.end(callerOf(request), serverId));
  }

  private async send(reply: FastifyReply, answer: McpAnswer): Promise<void> {
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

/** Only an agent calls MCP servers through the relay (D20, D32). */
function callerOf(request: TrafficRequest): TrafficCaller {
  return agentCallerOf(
    request,
    () => new HttpProblem(403, 'forbidden', 'only an agent token may call an MCP server'),
  );
}
