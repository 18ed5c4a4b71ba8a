import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance } from 'fastify';

import { HitlModule } from '../hitl/hitl.module';
import { LicencesModule } from '../licences/licences.module';
import { McpServersModule } from '../mcp-servers/mcp-servers.module';
import { McpToolsModule } from '../mcp-tools/mcp-tools.module';
import { A2aController } from './a2a/a2a.controller';
import { A2aDirectory } from './a2a/a2a-directory';
import { A2aExchange } from './a2a/a2a-exchange';
import { A2aHops } from './a2a/a2a-hops';
import { A2aRelayService } from './a2a/a2a-relay.service';
import { A2aUpstream } from './a2a/a2a-upstream';
import { InstalledAgents } from './a2a/installed-agents';
import { InstalledMcpServers } from './mcp/installed-mcp-servers';
import { InstalledLicences } from './pipeline/installed-licences';
import { AgentCardRefreshController } from './a2a/agent-card-refresh.controller';
import { AgentCards } from './a2a/agent-cards.service';
import { HeldPushesRepository } from './a2a/push/held-pushes.repository';
import { PushConfigsRepository } from './a2a/push/push-configs.repository';
import { PushGovernance } from './a2a/push/push-governance';
import { PushReceiver } from './a2a/push/push-receiver';
import { PushController } from './a2a/push/push.controller';
import { HumanController } from './human/human.controller';
import { ReachableAgentsRepository } from './human/reachable-agents.repository';
import { LlmCompletions } from './llm/llm-completions';
import { LlmPayments } from './llm/llm-payments';
import { LlmSpend } from './llm/llm-spend';
import { SpendModule } from '../spend/spend.module';
import { LlmController } from './llm/llm.controller';
import { LlmForwarder } from './llm/llm-forwarder';
import { CompletionAnswers } from './llm/completion-answers';
import { LlmRelayService } from './llm/llm-relay.service';
import { LlmUpstream } from './llm/llm-upstream';
import { ProtectedResourceController } from '../mcp-users/protected-resource.controller';
import { McpController } from './mcp/mcp.controller';
import { McpExchange } from './mcp/mcp-exchange';
import { McpHops } from './mcp/mcp-hops';
import { McpOpenStreams } from './mcp/mcp-open-stream';
import { McpRelayService } from './mcp/mcp-relay.service';
import { McpToolRelist } from './mcp/mcp-tool-relist';
import { McpToolWatch } from './mcp/mcp-tool-watch';
import { ToolRelistsRepository } from '../mcp-tools/tool-relists.repository';
import { McpUpstream } from './mcp/mcp-upstream';
import { McpInputMailbox } from './mcp/revisions/input-mailbox';
import { HeldLegacyCalls } from './mcp/revisions/held-legacy-calls';
import { TranslatedSessions } from './mcp/revisions/translated-sessions';
import { LegacyClientBridge } from './mcp/revisions/legacy-client-bridge';
import { McpListenBridge } from './mcp/revisions/listen-bridge';
import { ModernClientBridge } from './mcp/revisions/modern-client-bridge';
import { McpRevisionRouter } from './mcp/revisions/revision-router';
import { McpServerEras } from './mcp/revisions/server-eras';
import { VirtualMemberClient } from './mcp/virtual/member-client';
import { VirtualMcpRelay } from './mcp/virtual/virtual-mcp-relay';
import { VirtualMemberCalls } from './mcp/virtual/virtual-member-calls';
import { HopAuditor } from './pipeline/hop-auditor';
import { EvaluationTaps } from './pipeline/evaluation-taps';
import { AiDisclosures } from './disclosure/ai-disclosures';
import { DisclosureRetentionJob } from './disclosure/disclosure-retention.job';
import { PushConfigRetentionJob } from './a2a/push/push-config-retention.job';
import { DisclosuresRepository } from './disclosure/disclosures.repository';
import { PersonDeliveries } from './a2a/person-delivery';
import { HopPipeline } from './pipeline/hop-pipeline';
import { HopTracer } from './tracing/hop-tracer';
import { ShadowObserver } from './pipeline/shadow-observer';
import { keepUnreadableJsonRpcBodies } from './pipeline/json-rpc-body';
import { OpenedCredentials } from './pipeline/opened-credentials';
import { RateLimiter } from './pipeline/rate-limiter';
import { StreamWatch } from './pipeline/stream-watch';
import { TrafficDirectory } from './pipeline/traffic-directory';
import { TrafficGuard } from './pipeline/traffic-guard';
import { BudgetedPaymentGate, PaymentGate } from './payments/payment-gate';
import { X402OffersRepository } from './payments/x402-offers.repository';
import { X402Payments } from './payments/x402-payments';
import { PerCallSales } from './payments/per-call-sales';
import { InstalledSales } from './a2a/installed-sales';

/** D20, D43: the shared pipeline/ and one folder per protocol. */
@Module({
  imports: [HitlModule, McpServersModule, McpToolsModule, SpendModule, LicencesModule],
  controllers: [
    McpController,
    ProtectedResourceController,
    A2aController,
    AgentCardRefreshController,
    PushController,
    LlmController,
    HumanController,
  ],
  providers: [
    TrafficDirectory,
    RateLimiter,
    TrafficGuard,
    HopAuditor,
    HopPipeline,
    HopTracer,
    ShadowObserver,
    EvaluationTaps,
    StreamWatch,
    OpenedCredentials,
    McpUpstream,
    McpHops,
    McpToolWatch,
    McpToolRelist,
    ToolRelistsRepository,
    McpOpenStreams,
    McpExchange,
    McpRelayService,
    McpServerEras,
    McpInputMailbox,
    HeldLegacyCalls,
    TranslatedSessions,
    McpListenBridge,
    LegacyClientBridge,
    ModernClientBridge,
    McpRevisionRouter,
    VirtualMemberClient,
    VirtualMemberCalls,
    VirtualMcpRelay,
    A2aDirectory,
    A2aUpstream,
    AgentCards,
    A2aHops,
    A2aExchange,
    A2aRelayService,
    InstalledAgents,
    InstalledMcpServers,
    InstalledLicences,
    PushConfigsRepository,
    HeldPushesRepository,
    PushGovernance,
    PushReceiver,
    LlmUpstream,
    LlmForwarder,
    CompletionAnswers,
    LlmCompletions,
    LlmPayments,
    LlmSpend,
    LlmRelayService,
    ReachableAgentsRepository,
    DisclosuresRepository,
    AiDisclosures,
    DisclosureRetentionJob,
    PushConfigRetentionJob,
    PersonDeliveries,
    X402OffersRepository,
    // payments.md PY11: the seam budgets take over; for now the review threshold alone.
    { provide: PaymentGate, useClass: BudgetedPaymentGate },
    X402Payments,
    PerCallSales,
    InstalledSales,
  ],
  exports: [
    HopPipeline,
    // G16: a LIVE evaluation run drives the MCP and A2A paths in this process.
    McpRelayService,
    A2aRelayService,
    LlmRelayService,
    EvaluationTaps,
    TrafficGuard,
    TrafficDirectory,
    A2aUpstream,
    AgentCards,
    OpenedCredentials,
    AiDisclosures,
    DisclosureRetentionJob,
    PushConfigRetentionJob,
    A2aDirectory,
  ],
})
export class TrafficModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /** D61: before the server is ready, so it holds in every deployment (D2) that mounts the paths. */
  onModuleInit(): void {
    const { httpAdapter } = this.adapterHost;
    // An application context without HTTP (a command) has no adapter and no traffic paths.
    if (httpAdapter) {
      keepUnreadableJsonRpcBodies(httpAdapter.getInstance<FastifyInstance>());
    }
  }
}
