import { Controller, Delete, Get, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { RequestWithPrincipal } from '@agp/auth';
import { correlationIdOf, HttpProblem, uuidParam } from '@agp/http';
import { FastifyReply, FastifyRequest } from 'fastify';

import { McpAnswer } from './mcp-exchange';
import { McpCaller, McpRelayService } from './mcp-relay.service';
import { SseWriter } from './sse-writer';

type AgentRequest = FastifyRequest & RequestWithPrincipal;

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
    @Req() request: AgentRequest,
    @Res() reply: FastifyReply,
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
  ): Promise<void> {
    const caller = { ...callerOf(request), signal: goneSignal(reply) };
    await this.send(reply, await this.relay.post(caller, serverId, request.body));
  }

  @Get(':mcpServerId')
  async listen(
    @Req() request: AgentRequest,
    @Res() reply: FastifyReply,
    @Param('mcpServerId', uuidParam('mcpServerId')) serverId: string,
  ): Promise<void> {
    await this.send(reply, await this.relay.listen(callerOf(request), serverId));
  }

  @Delete(':mcpServerId')
  async end(
    @Req() request: AgentRequest,
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
    // The stream writes the raw response itself, so Fastify's own headers are carried over.
    const base = Object.fromEntries(
      Object.entries(reply.getHeaders()).map(([name, value]) => [name, String(value)]),
    );
    reply.hijack();
    reply.raw.on('close', () => answer.cancel());
    const writer = new SseWriter(reply.raw, base);
    try {
      await answer.run(writer);
    } catch (error) {
      this.logger.error({ err: error }, 'MCP stream failed');
      writer.end();
    }
  }
}

/** Aborted when the agent's connection closes before the answer is complete. */
function goneSignal(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) {
      gone.abort();
    }
  });
  return gone.signal;
}

/** Only an agent calls MCP servers through the relay (D20, D32). */
function callerOf(request: AgentRequest): McpCaller {
  const principal = request.principal;
  if (!principal || principal.kind !== 'AGENT') {
    throw new HttpProblem(403, 'forbidden', 'only an agent token may call an MCP server');
  }
  return {
    tenantId: principal.tenantId,
    agentId: principal.subject,
    correlationId: correlationIdOf(request.raw),
    headers: request.headers,
  };
}
