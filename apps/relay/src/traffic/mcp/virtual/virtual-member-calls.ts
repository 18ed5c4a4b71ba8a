import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import { VirtualMember } from '../../../mcp-servers/virtual/virtual-members';
import { HopPipeline } from '../../pipeline/hop-pipeline';
import { REFUSALS } from '../../pipeline/refusal-codes';
import { TrafficDirectory } from '../../pipeline/traffic-directory';
import { killSwitchReason } from '../../pipeline/traffic-guard';
import { JsonRpcMessage, rpcRefusal } from '../json-rpc';
import { McpCall, hopOf, partyOf } from '../mcp-call';
import { McpHops } from '../mcp-hops';
import { AskedFor } from '../mcp-messages';
import { UpstreamFailure, failureOf } from '../mcp-upstream';
import { MemberContext, VirtualMemberClient } from './member-client';
import { memberGrant } from './virtual-names';

/** The member of a virtual call that failed, and the error its client is answered (T80). */
export class MemberFailed extends Error {
  constructor(
    readonly member: VirtualMember,
    readonly answer: JsonRpcMessage,
  ) {
    super(answer.error?.message);
  }
}

/**
 * D52: one member's part of a virtual server's call. The member's call has the member as its
 * server and the virtual server beside it, so each hop is judged and audited naming both, under
 * the virtual server's grant as the member's own names.
 */
@Injectable()
export class VirtualMemberCalls {
  constructor(
    private readonly directory: TrafficDirectory,
    private readonly hops: McpHops,
    private readonly pipeline: HopPipeline,
    private readonly client: VirtualMemberClient,
  ) {}

  /** The call as one member sees it, or undefined when the member is no longer registered. */
  async callOf(call: McpCall, member: VirtualMember): Promise<McpCall | undefined> {
    const route = await this.directory.mcpRoute(
      call.tenantId,
      call.agentId,
      member.serverId,
      partyOf(call),
    );
    if (!route) {
      return undefined;
    }
    const subscription = call.route.subscription;
    return {
      ...call,
      serverId: member.serverId,
      route: {
        ...call.route,
        server: route.server,
        ...(subscription
          ? {
              subscription: {
                ...subscription,
                tools: memberGrant(subscription.tools, member.prefix),
              },
            }
          : {}),
      },
      virtual: { id: call.serverId, name: call.route.server.name, prefix: member.prefix },
    };
  }

  /**
   * A request of the agent to one member: judged on the way there and on the way back; what a
   * policy refuses is answered in its place. Throws MemberFailed when the member cannot answer.
   */
  async judged(
    call: McpCall,
    member: VirtualMember,
    message: JsonRpcMessage,
    askedFor: AskedFor,
  ): Promise<JsonRpcMessage> {
    const memberCall = await this.mustCall(call, member, message);
    const stopped = await this.killSwitchAnswer(memberCall, message);
    if (stopped) {
      return stopped;
    }
    const there = await this.hops.judgeFromAgent(memberCall, message);
    const forward = there.forward;
    if (!forward) {
      await there.audited;
      return there.answer!;
    }
    // T1, T52: durable before the member acts on it, or at the latest before the agent's answer.
    return this.pipeline.forward(memberCall.durability, there.audited, () =>
      this.answered(memberCall, member, forward, askedFor),
    );
  }

  /** T81, D35: a kill switch on a member stops its part of a virtual server, audited as BLOCK. */
  private async killSwitchAnswer(
    memberCall: McpCall,
    message: JsonRpcMessage,
  ): Promise<JsonRpcMessage | undefined> {
    const engaged = (await this.directory.engagedKillSwitches(memberCall.tenantId)).find(
      (s) => s.scope === 'MCP_SERVER' && s.targetId === memberCall.serverId,
    );
    if (!engaged) {
      return undefined;
    }
    const reason = killSwitchReason(engaged);
    const { decisionId, audited } = this.pipeline.refusing(hopOf(memberCall, 'REQUEST', message), {
      type: 'COMMUNICATION_AUDIT',
      action: 'BLOCK',
      reason,
      details: { killSwitchId: engaged.id },
    });
    await audited;
    const data = {
      reasons: [reason],
      killSwitchId: engaged.id,
      decisionId,
      correlationId: memberCall.correlationId,
    };
    return rpcRefusal(message.id, REFUSALS.killSwitch, data);
  }

  /** D34: a request a person released goes to its member unjudged; its answer is judged. */
  async released(
    call: McpCall,
    member: VirtualMember,
    message: JsonRpcMessage,
    askedFor: AskedFor,
  ): Promise<JsonRpcMessage> {
    return this.answered(await this.mustCall(call, member, message), member, message, askedFor);
  }

  private async answered(
    memberCall: McpCall,
    member: VirtualMember,
    message: JsonRpcMessage,
    askedFor: AskedFor,
  ): Promise<JsonRpcMessage> {
    const response = await this.send(memberCall, member, message, askedFor);
    const back = await this.hops.judgeFromServer(memberCall, response, askedFor);
    await back.audited;
    return back.forward ?? rpcRefusal(message.id, REFUSALS.blockedByPolicy);
  }

  /** The relay's own request to a member (a lookup): not a hop of the agent's. */
  async lookup(
    call: McpCall,
    member: VirtualMember,
    method: string,
    params: object,
  ): Promise<JsonRpcMessage> {
    const memberCall = await this.mustCall(call, member, { jsonrpc: '2.0', id: null, method });
    const message: JsonRpcMessage = {
      jsonrpc: '2.0',
      id: `agp-${randomUUID()}`,
      method,
      params: { ...params },
    };
    return this.send(memberCall, member, message, { method, resendDigest: '' });
  }

  async endSessions(call: McpCall, sessionKey: string): Promise<void> {
    const contexts = new Map<string, MemberContext>();
    for (const member of call.route.server.members ?? []) {
      const memberCall = await this.callOf(call, member);
      if (memberCall) {
        contexts.set(member.serverId, this.contextOf(memberCall, sessionKey));
      }
    }
    await this.client.endAll((id) => contexts.get(id), {
      tenantId: call.tenantId,
      virtualServerId: call.serverId,
      sessionKey,
    });
  }

  private async mustCall(
    call: McpCall,
    member: VirtualMember,
    message: JsonRpcMessage,
  ): Promise<McpCall> {
    const memberCall = await this.callOf(call, member);
    if (!memberCall) {
      const why = `member ${member.prefix} (${member.serverId}) of virtual server "${call.route.server.name}" is no longer registered`;
      throw new MemberFailed(
        member,
        rpcRefusal(message.id, REFUSALS.upstreamFailed, memberData(call, member), why),
      );
    }
    return memberCall;
  }

  /** The member's response under the agent's id; a failure is audited as ERROR and named (T80). */
  private async send(
    memberCall: McpCall,
    member: VirtualMember,
    message: JsonRpcMessage,
    askedFor: AskedFor,
  ): Promise<JsonRpcMessage> {
    const ownId = `agp-${randomUUID()}`;
    try {
      const response = await this.client.request(
        this.contextOf(memberCall, sessionKeyOf(memberCall)),
        {
          ...message,
          id: ownId,
        },
      );
      return { ...response, id: message.id };
    } catch (error) {
      const failure: UpstreamFailure = failureOf(error, memberCall.route.server);
      const why = `member "${memberCall.route.server.name}" (prefix ${member.prefix}) of virtual server "${memberCall.virtual!.name}" failed: ${failure.message}`;
      const answer = rpcRefusal(
        message.id,
        REFUSALS.upstreamFailed,
        memberData(memberCall, member),
        why,
      );
      if (message.id !== null) {
        await this.pipeline.refuse(hopOf(memberCall, 'RESPONSE', answer, askedFor), {
          type: 'COMMUNICATION_AUDIT',
          action: 'ERROR',
          reason: why,
          details: { outcome: 'ERROR', httpStatus: failure.status },
        });
      }
      throw new MemberFailed(member, answer);
    }
  }

  private contextOf(memberCall: McpCall, sessionKey: string): MemberContext {
    return {
      key: {
        tenantId: memberCall.tenantId,
        virtualServerId: memberCall.virtual!.id,
        sessionKey,
        memberServerId: memberCall.serverId,
      },
      server: memberCall.route.server,
      correlationId: memberCall.correlationId,
      ...(memberCall.signal ? { signal: memberCall.signal } : {}),
    };
  }
}

/** traffic.md T77: one client session of one party; without a session, the party's own. */
export function sessionKeyOf(call: McpCall): string {
  const session = call.agentHeaders['mcp-session-id'];
  const id = typeof session === 'string' && session.length <= 200 ? session : '';
  return `${call.user ? 'user' : 'agent'}:${call.agentId}:${id}`;
}

function memberData(call: McpCall, member: VirtualMember): Record<string, unknown> {
  return {
    virtualServerId: call.virtual?.id ?? call.serverId,
    memberServerId: member.serverId,
    memberPrefix: member.prefix,
    correlationId: call.correlationId,
  };
}
