import { Controller, Delete, Get, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { uuidParam } from '@agp/http';
import { FastifyReply } from 'fastify';

import { TrafficRequest, agentCallerOf, goneSignal, sendStream } from '../pipeline/traffic-intake';
import { McpAnswer } from './mcp-exchange';
import { McpRelayService } from './mcp-relay.service';

/**
 * D20: the MCP traffic path, `{base_url}/relay/mcp/{mcpServerId}`, MCP Streamable HTTP both ways.
 * The global guard has verified an `mcp:call` token (D8: audience `{base_url}/relay`), and only an
 * agent's may call (D32, T38); the handlers only translate HTTP into a call of the relay and back.
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
    const caller = { ...agentCallerOf(request, 'an MCP server'), signal: goneSignal(reply) };
    await this.send(reply, await this.relay.post(caller, serverId, request.body));
  }

  @Get(':mcpServerId')
  async listen(
    @Req() request: TrafficRequest,
    @Res() reply: FastifyReply,
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
  ): Promise<void> {
    await this.send(
      reply,
      await this.relay.listen(agentCallerOf(request, 'an MCP server'), serverId),
    );
  }

  @Delete(':mcpServerId')
  async end(
    @Req() request: TrafficRequest,
    @Res() reply: FastifyReply,
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
  ): Promise<void> {
    await this.send(reply, await this.relay.end(agentCallerOf(request, 'an MCP server'), serverId));
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
