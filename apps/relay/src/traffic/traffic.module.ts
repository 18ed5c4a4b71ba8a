import { Module } from '@nestjs/common';

import { HitlModule } from '../hitl/hitl.module';
import { McpServersModule } from '../mcp-servers/mcp-servers.module';
import { LlmCompletions } from './llm/llm-completions';
import { LlmController } from './llm/llm.controller';
import { LlmForwarder } from './llm/llm-forwarder';
import { LlmHolds } from './llm/llm-holds';
import { LlmRelayService } from './llm/llm-relay.service';
import { LlmUpstream } from './llm/llm-upstream';
import { McpController } from './mcp/mcp.controller';
import { McpExchange } from './mcp/mcp-exchange';
import { McpHops } from './mcp/mcp-hops';
import { McpRelayService } from './mcp/mcp-relay.service';
import { McpUpstream } from './mcp/mcp-upstream';
import { HopAuditor } from './pipeline/hop-auditor';
import { HopPipeline } from './pipeline/hop-pipeline';
import { RateLimiter } from './pipeline/rate-limiter';
import { TrafficDirectory } from './pipeline/traffic-directory';
import { TrafficGuard } from './pipeline/traffic-guard';

/**
 * The traffic paths of D20: the hop pipeline every protocol shares (pipeline/) and one folder per
 * protocol (mcp/, llm/; A2A follows).
 */
@Module({
  imports: [HitlModule, McpServersModule],
  controllers: [McpController, LlmController],
  providers: [
    TrafficDirectory,
    RateLimiter,
    TrafficGuard,
    HopAuditor,
    HopPipeline,
    McpUpstream,
    McpHops,
    McpExchange,
    McpRelayService,
    LlmUpstream,
    LlmForwarder,
    LlmHolds,
    LlmCompletions,
    LlmRelayService,
  ],
  exports: [HopPipeline, TrafficGuard, TrafficDirectory],
})
export class TrafficModule {}
