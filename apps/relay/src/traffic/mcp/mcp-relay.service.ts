import { Inject, Injectable } from '@nestjs/common';
import { HttpProblem } from '@agp/http';

import { PUBLIC_BASE_URL } from '../../config/relay-config.module';
import { HopPipeline } from '../pipeline/hop-pipeline';
import { RefusalAnswer } from '../pipeline/refusal-answers';
import { mcpRouteWithDouble } from '../pipeline/sandbox-doubles';
import { HITL_HEADER, callBasisOf, resendHoldOf } from '../pipeline/traffic-call';
import { McpParty, TrafficDirectory } from '../pipeline/traffic-directory';
import { TrafficCaller } from '../pipeline/traffic-intake';
import {
  JsonRpcId,
  JsonRpcMessage,
  RPC_INVALID_REQUEST,
  kindOf,
  parseBody,
  rpcError,
  rpcRefusal,
} from './json-rpc';
import { McpCall, hopOf, mcpAdmission, mcpPaymentCallOf } from './mcp-call';
import { PaidCall } from '../payments/paid-call';
import { paidResendDigest } from '../payments/paid-hop';
import { carriesPayment } from '../payments/x402-messages';
import { JudgedPayment, X402Payments } from '../payments/x402-payments';
import { InstalledMcpServers } from './installed-mcp-servers';
import { McpAnswer, McpExchange } from './mcp-exchange';
import { McpHops, asJsonRpc } from './mcp-hops';
import { normalizedOrigin, refuseForeignOrigin } from './mcp-origin';
import { AskedFor, resendDigestOf, toolOf } from './mcp-messages';
import { headerMismatchAnswer, headerMismatchOf } from './revisions/header-check';
import { McpRevisionRouter, RevisionBridge } from './revisions/revision-router';
import { VirtualMcpRelay } from './virtual/virtual-mcp-relay';

/**
 * Who calls the path (T38: an agent; D43: or a person through their own MCP client; MK32: or, on
 * the publisher's side, an installation, with the licence its installer's call goes under).
 */
export type McpCaller = TrafficCaller & {
  user?: McpCall['user'];
  installation?: { licence?: string };
};

/** T95: 2026-07-28's one change-notification stream, the answer to a POST that stays open. */
const LISTEN_METHOD = 'subscriptions/listen';

/** MCP revisions from which a JSON-RPC batch is no longer allowed (2025-06-18 removed them). */
const FIRST_REVISION_WITHOUT_BATCHES = '2025-06-18';

/** D20, issue 11 § 3: admission (D32, D35, D36) and judgement (D33) before the server. */
@Injectable()
export class McpRelayService {
  constructor(
    private readonly directory: TrafficDirectory,
    private readonly pipeline: HopPipeline,
    private readonly hops: McpHops,
    private readonly exchange: McpExchange,
    private readonly virtual: VirtualMcpRelay,
    private readonly revisions: McpRevisionRouter,
    @Inject(PUBLIC_BASE_URL) private readonly publicBaseUrl: string,
    private readonly payments: X402Payments,
    private readonly installed: InstalledMcpServers,
  ) {
    installed.attach(this);
  }

  async post(caller: McpCaller, serverId: string, body: unknown): Promise<McpAnswer> {
    await this.checkOrigin(caller);
    const call = await this.callFor(caller, serverId);
    const parsed = parseBody(body);
    if ('invalid' in parsed) {
      return { kind: 'json', status: 400, body: parsed.invalid };
    }
    const { messages, isBatch } = parsed;
    const version = caller.headers['mcp-protocol-version'];
    if (isBatch && typeof version === 'string' && version >= FIRST_REVISION_WITHOUT_BATCHES) {
      const why = `MCP revision ${version} does not allow JSON-RPC batches`;
      return { kind: 'json', status: 400, body: rpcError(null, RPC_INVALID_REQUEST, why) };
    }
    const mismatch = isBatch ? undefined : headerMismatchOf(caller.headers, messages[0]);
    if (mismatch !== undefined) {
      return headerMismatchAnswer(messages[0], mismatch);
    }
    const refused =
      (await this.admit(call, messages)) ?? (await this.installed.refusal(call, messages));
    if (refused) {
      return refused;
    }
    const hitlRequestId = resendHoldOf(caller.headers);
    const payment = await this.paymentOf(call, messages, hitlRequestId === undefined);
    if (payment?.kind === 'refused') {
      return refusalAnswer(messages, payment.answer, { status: 200, orElse: 200 });
    }
    if (hitlRequestId !== undefined) {
      return this.resend(call, hitlRequestId, messages, isBatch, payment);
    }
    if (isVirtual(call)) {
      return this.virtual.post(call, messages, isBatch);
    }

    // T98: decided before the hop is judged, so a translated request is judged as the agent sent it.
    // payments.md PY19: a bridge carries a paid request's payment as the exchange does.
    const bridge = isBatch
      ? undefined
      : await this.revisions.bridgeFor(call, caller.headers, messages[0]);
    const judged = await Promise.all(
      messages.map((m) => this.hops.judgeFromAgent(call, m, payment)),
    );
    const audited = Promise.all(judged.map((j) => j.audited));
    audited.catch(() => undefined);
    const forward = judged.flatMap((j) => (j.forward ? [j.forward] : []));
    const answers = judged.flatMap((j) => (j.answer ? [j.answer] : []));
    const pending = new Map<JsonRpcId, AskedFor>();
    judged.forEach((j, i) => {
      if (j.forward && kindOf(j.forward) === 'request') {
        // The digest of what the agent sent: a resend carries the original, not the masked copy.
        const sent = messages[i];
        pending.set(j.forward.id!, {
          method: j.forward.method!,
          ...optionalTool(j.forward),
          resendDigest: paidResendDigest(resendDigestOf(sent), payment),
        });
      }
    });
    if (forward.length === 0) {
      // T1: what the agent is answered is in the trail first.
      await audited;
      return answers.length === 0
        ? { kind: 'empty', status: 202 }
        : { kind: 'json', status: 200, body: isBatch ? answers : answers[0] };
    }
    if (bridge) {
      const asked =
        forward[0].id !== undefined && forward[0].id !== null
          ? pending.get(forward[0].id)
          : undefined;
      return this.pipeline.forward(call.durability, audited, () =>
        this.bridged(bridge, call, forward[0], asked, payment),
      );
    }
    // T1, T52: durable before the server acts on it, or at the latest before the agent's answer.
    return this.pipeline.forward(call.durability, audited, async () =>
      this.exchange.forwardPost(
        call,
        {
          body: isBatch ? forward : forward[0],
          isBatch,
          pending,
          localAnswers: answers,
          listening: !isBatch && forward[0].method === LISTEN_METHOD,
        },
        await this.paying(call, payment),
      ),
    );
  }

  /**
   * D60, payments.md PY4: a payment pays for the one request of a POST to a server that is not
   * virtual (the relay itself takes no payment); judged before anything else.
   */
  private async paymentOf(
    call: McpCall,
    messages: JsonRpcMessage[],
    gated: boolean,
  ): Promise<Awaited<ReturnType<X402Payments['judge']>>> {
    if (!carriesPayment(call.agentHeaders)) {
      return undefined;
    }
    const requests = messages.filter((m) => kindOf(m) === 'request');
    // PY23: an installed entry's hop to its publisher carries no payment, so none is taken.
    const installed = call.route.server.installation !== undefined;
    if (requests.length !== 1 || messages.length !== 1 || isVirtual(call) || installed) {
      const why = isVirtual(call)
        ? 'a virtual MCP server takes no payment'
        : installed
          ? 'an installed MCP server takes no payment'
          : 'an x402 payment pays for a POST of exactly one request';
      return this.payments.reject(mcpPaymentCallOf(call), why);
    }
    return this.payments.judge(mcpPaymentCallOf(call), call.agentHeaders, gated);
  }

  /** PY10, T1: the attempt is durable before the server can act on the payment. */
  private async paying(call: McpCall, payment: JudgedPayment | undefined): Promise<PaidCall> {
    const paid = new PaidCall(this.payments, mcpPaymentCallOf(call), payment);
    await paid.sending();
    return paid;
  }

  /**
   * PY19, PY26: the bridge records the attempt as the payment's POST goes out; a request it
   * answers itself (initialize, server/discover, ping, a session that failed) gives the payment's
   * reservation back at once instead of at its TTL.
   */
  private async bridged(
    bridge: RevisionBridge,
    call: McpCall,
    message: JsonRpcMessage,
    asked: AskedFor | undefined,
    payment: JudgedPayment | undefined,
  ): Promise<McpAnswer> {
    const paid = new PaidCall(this.payments, mcpPaymentCallOf(call), payment);
    try {
      return await bridge.forward(call, message, asked, paid);
    } finally {
      await paid.unsent('the request was answered without reaching the payee');
    }
  }

  async listen(caller: McpCaller, serverId: string): Promise<McpAnswer> {
    await this.checkOrigin(caller);
    const call = await this.callFor(caller, serverId);
    const refused = (await this.admit(call, [], false)) ?? (await this.installed.refusal(call, []));
    if (refused) {
      return refused;
    }
    if (isVirtual(call)) {
      return this.virtual.listen();
    }
    return (await this.revisions.listen(call, caller.headers)) ?? this.exchange.listen(call);
  }

  async end(caller: McpCaller, serverId: string): Promise<McpAnswer> {
    await this.checkOrigin(caller);
    const call = await this.callFor(caller, serverId);
    const refused = (await this.admit(call, [], false)) ?? (await this.installed.refusal(call, []));
    if (refused) {
      return refused;
    }
    if (isVirtual(call)) {
      return this.virtual.end(call);
    }
    return (await this.revisions.end(call, caller.headers)) ?? this.exchange.endSession(call);
  }

  /** D34: a held request goes unjudged (a person approved it); a held answer skips the server. */
  private async resend(
    call: McpCall,
    hitlRequestId: string,
    messages: JsonRpcMessage[],
    isBatch: boolean,
    payment: JudgedPayment | undefined,
  ): Promise<McpAnswer> {
    const message = messages[0];
    if (isBatch || kindOf(message) !== 'request') {
      throw HttpProblem.validation([
        { field: 'body', message: `a resend with ${HITL_HEADER} carries the one held request` },
      ]);
    }
    if (isVirtual(call)) {
      return this.virtual.resend(call, hitlRequestId, message);
    }
    const resendDigest = paidResendDigest(resendDigestOf(message), payment);
    const released = await this.pipeline.release<JsonRpcMessage>({
      tenantId: call.tenantId,
      agentId: call.agentId,
      correlationId: call.correlationId,
      hitlRequestId,
      resendDigest,
    });
    if (!released) {
      throw HttpProblem.notFound(`no HITL request ${hitlRequestId} of this agent`);
    }
    // PY14: a reviewer's rejection of a held payment is recorded as the payment's.
    const outcome = payment
      ? await this.payments.judgedHop(mcpPaymentCallOf(call), payment, released)
      : released;
    if (outcome.kind === 'RELEASED' && outcome.direction === 'REQUEST') {
      const request = { ...(outcome.message as JsonRpcMessage), id: message.id };
      const askedFor = { method: request.method!, ...optionalTool(request), resendDigest };
      return this.exchange.forwardPost(
        call,
        {
          body: request,
          isBatch: false,
          pending: new Map([[message.id!, askedFor]]),
          localAnswers: [],
        },
        await this.paying(call, payment),
      );
    }
    const settled = asJsonRpc(message, outcome);
    return { kind: 'json', status: 200, body: settled.forward ?? settled.answer };
  }

  /** T85: a browser's request from a foreign site is refused before the route is even read. */
  private async checkOrigin(caller: McpCaller): Promise<void> {
    if (caller.headers.origin === undefined) {
      return;
    }
    const { allowedOrigins } = await this.directory.settings(caller.tenantId);
    const own = normalizedOrigin(this.publicBaseUrl);
    refuseForeignOrigin(caller.headers, allowedOrigins ?? (own ? [own] : []));
  }

  private async callFor(caller: McpCaller, serverId: string): Promise<McpCall> {
    const party: McpParty = caller.user ? 'USER' : caller.installation ? 'INSTALLATION' : 'AGENT';
    const basis = await callBasisOf(
      this.directory,
      caller,
      this.directory.mcpRoute(caller.tenantId, caller.agentId, serverId, party),
      `no MCP server ${serverId} in this tenant`,
    );
    const double = caller.evaluation?.double;
    if (double) {
      basis.route = await mcpRouteWithDouble(
        this.directory,
        caller.tenantId,
        caller.agentId,
        basis.route,
        double,
      );
    }
    return {
      ...basis,
      agentId: caller.agentId,
      serverId,
      agentHeaders: caller.headers,
      ...(caller.user ? { user: caller.user } : {}),
      ...(caller.installation?.licence ? { licence: caller.installation.licence } : {}),
      ...(caller.installation ? { viaInstallation: true } : {}),
      admission: mcpAdmission(this.directory, basis, caller.agentId, serverId, party),
    };
  }

  /**
   * D32, D35, D36, D61: a kill switch answers −31005 per request, or `id: null` with HTTP 403 when
   * nothing is to answer; GET and DELETE are not `counted` against rate limits.
   */
  private async admit(
    call: McpCall,
    messages: JsonRpcMessage[],
    counted = true,
  ): Promise<McpAnswer | undefined> {
    const hops = messages.map((m) => hopOf(call, 'REQUEST', m));
    const refused = await this.pipeline.admit(call.admission, hops, counted ? hops.length : 0);
    switch (refused?.kind) {
      case undefined:
        return undefined;
      case 'NOT_SUBSCRIBED':
        throw new HttpProblem(403, 'forbidden', refused.reason);
      case 'KILL_SWITCH':
        return refusalAnswer(messages, refused.answer, { status: 200, orElse: 403 });
      case 'RATE_LIMITED':
        return {
          ...refusalAnswer(messages, refused.answer, { status: 429, orElse: 429 }),
          headers: { 'retry-after': String(refused.retryAfterSeconds) },
        };
    }
  }
}

/** D41, D61: an error per request; none to answer: one with `id: null` at `orElse`. */
function refusalAnswer(
  messages: JsonRpcMessage[],
  { refusal, data }: RefusalAnswer,
  statuses: { status: number; orElse: number },
): McpAnswer & { kind: 'json' } {
  const requests = messages.filter((m) => kindOf(m) === 'request');
  if (requests.length === 0) {
    return { kind: 'json', status: statuses.orElse, body: rpcRefusal(null, refusal, data) };
  }
  const errors = requests.map((m) => rpcRefusal(m.id, refusal, data));
  return { kind: 'json', status: statuses.status, body: messages.length > 1 ? errors : errors[0] };
}

/** D52: served by the relay itself over its members. */
function isVirtual(call: McpCall): boolean {
  return call.route.server.transport === 'VIRTUAL';
}

function optionalTool(message: JsonRpcMessage): { tool?: string } {
  const tool = toolOf(message);
  return tool ? { tool } : {};
}
