import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { HttpProblem } from '@agp/http';

import { VirtualMember, memberOfName } from '../../../mcp-servers/virtual/virtual-members';
import { HopPipeline } from '../../pipeline/hop-pipeline';
import { JsonRpcMessage, kindOf, rpcError } from '../json-rpc';
import { McpCall } from '../mcp-call';
import { McpAnswer } from '../mcp-exchange';
import { McpHops, asJsonRpc } from '../mcp-hops';
import { AskedFor, resendDigestOf, toolOf } from '../mcp-messages';
import { MemberFailed, VirtualMemberCalls, sessionKeyOf } from './virtual-member-calls';
import { ListMethod, exposedItems, isListMethod, offersUri, LISTS } from './virtual-names';

/** The revisions a virtual server speaks to its clients (it is their server, T77). */
const REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
/** Pages of one member's list the relay follows for one merged list. */
const MAX_PAGES = 10;
/** D52, T80: the members a merged list is missing, under the result's `_meta`. */
export const UNAVAILABLE_META = 'agp/unavailableMembers';

type Params = Record<string, unknown>;

/**
 * D52, traffic.md T75–T80: the relay is the MCP server of a virtual server and the client of each
 * member. Lists merge what the members offer (prefixed, filtered); a call reaches only the member
 * its name says; a member that fails is named in the error of what needed it and nowhere else.
 */
@Injectable()
export class VirtualMcpRelay {
  constructor(
    private readonly hops: McpHops,
    private readonly members: VirtualMemberCalls,
    private readonly pipeline: HopPipeline,
  ) {}

  async post(call: McpCall, messages: JsonRpcMessage[], isBatch: boolean): Promise<McpAnswer> {
    const headers: Record<string, string> = {};
    const answers: JsonRpcMessage[] = [];
    for (const message of messages) {
      if (kindOf(message) !== 'request') {
        // Notifications and answers of the client: judged and audited, the relay's own to keep.
        await (
          await this.hops.judgeFromAgent(call, message)
        ).audited;
        continue;
      }
      if (message.method === 'initialize') {
        headers['mcp-session-id'] = randomUUID();
      }
      const withSession = headers['mcp-session-id']
        ? {
            ...call,
            agentHeaders: { ...call.agentHeaders, 'mcp-session-id': headers['mcp-session-id'] },
          }
        : call;
      answers.push(await this.answer(withSession, message));
    }
    if (answers.length === 0) {
      return { kind: 'empty', status: 202, headers };
    }
    return { kind: 'json', status: 200, body: isBatch ? answers : answers[0], headers };
  }

  /** D34: the resend of a held tools/call or prompts/get; never a fresh decision. */
  async resend(call: McpCall, hitlRequestId: string, message: JsonRpcMessage): Promise<McpAnswer> {
    const params = (message.params ?? {}) as Params;
    const target = this.targetOf(call, message, params);
    if ('unknown' in target) {
      return { kind: 'json', status: 200, body: target.unknown };
    }
    const outcome = await this.pipeline.release<JsonRpcMessage>({
      tenantId: call.tenantId,
      agentId: call.agentId,
      correlationId: call.correlationId,
      hitlRequestId,
      resendDigest: resendDigestOf(target.own),
    });
    if (!outcome) {
      throw HttpProblem.notFound(`no HITL request ${hitlRequestId} of this agent`);
    }
    if (outcome.kind === 'RELEASED' && outcome.direction === 'REQUEST') {
      const released = { ...(outcome.message as JsonRpcMessage), id: message.id };
      const body = await this.members
        .released(call, target.member, released, askedFor(target.own))
        .catch((error: unknown) => failedAnswer(error));
      return { kind: 'json', status: 200, body };
    }
    const settled = asJsonRpc(target.own, outcome);
    return { kind: 'json', status: 200, body: settled.forward ?? settled.answer };
  }

  /** DELETE: the relay ends its session with each member. */
  async end(call: McpCall): Promise<McpAnswer> {
    await this.members.endSessions(call, sessionKeyOf(call));
    return { kind: 'empty', status: 200 };
  }

  /** T78: no stream of its own; each member's notifications stay with the member. */
  listen(): McpAnswer {
    return { kind: 'empty', status: 405, headers: { allow: 'POST, DELETE' } };
  }

  private async answer(call: McpCall, message: JsonRpcMessage): Promise<JsonRpcMessage> {
    const method = message.method!;
    const params = (message.params ?? {}) as Params;
    try {
      if (method === 'tools/call' || method === 'prompts/get') {
        return await this.byName(call, message, params);
      }
      if (['resources/read', 'resources/subscribe', 'resources/unsubscribe'].includes(method)) {
        return await this.byUri(call, message, params);
      }
      const own = await this.hops.judgeFromAgent(call, message);
      await own.audited;
      if (!own.forward) {
        return own.answer!;
      }
      if (isListMethod(method)) {
        return await this.merged(call, message, method);
      }
      return await this.local(call, message, params);
    } catch (error) {
      return failedAnswer(error);
    }
  }

  /** What the virtual server answers itself: initialize, ping, logging. */
  private async local(
    call: McpCall,
    message: JsonRpcMessage,
    params: Params,
  ): Promise<JsonRpcMessage> {
    const method: string = message.method ?? '';
    switch (method) {
      case 'initialize': {
        const asked = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
        return result(message, {
          protocolVersion: REVISIONS.includes(asked) ? asked : REVISIONS[0],
          capabilities: { tools: {}, prompts: {}, resources: { subscribe: true }, logging: {} },
          serverInfo: { name: call.route.server.name, version: '1.0.0' },
          instructions: `Virtual MCP server composed by the relay; names are {prefix}__{name}.`,
        });
      }
      case 'ping':
        return result(message, {});
      case 'logging/setLevel':
        await Promise.all(
          this.membersOf(call).map((m) =>
            this.members.lookup(call, m, 'logging/setLevel', params).catch(() => undefined),
          ),
        );
        return result(message, {});
      default:
        return rpcError(
          message.id,
          METHOD_NOT_FOUND,
          `method ${message.method} is not served by a virtual server`,
        );
    }
  }

  /** D52: every member's list, prefixed and filtered; a failed member is named under `_meta`. */
  private async merged(
    call: McpCall,
    message: JsonRpcMessage,
    method: ListMethod,
  ): Promise<JsonRpcMessage> {
    const parts = await Promise.all(
      this.membersOf(call).map(async (member) => {
        try {
          return { member, items: await this.listOf(call, member, method, message) };
        } catch (error) {
          if (error instanceof MemberFailed) {
            return { member, failed: error.answer.error?.message ?? 'failed' };
          }
          throw error;
        }
      }),
    );
    const items = parts.flatMap((p) => ('items' in p && p.items ? p.items : []));
    const unavailable = parts.flatMap((p) =>
      'failed' in p
        ? [{ serverId: p.member.serverId, prefix: p.member.prefix, error: p.failed }]
        : [],
    );
    return result(message, {
      [LISTS[method].items]: items,
      ...(unavailable.length > 0 ? { _meta: { [UNAVAILABLE_META]: unavailable } } : {}),
    });
  }

  /** One member's whole list (its pages followed), each page judged as the member's answer. */
  private async listOf(
    call: McpCall,
    member: VirtualMember,
    method: ListMethod,
    message: JsonRpcMessage,
  ): Promise<unknown[]> {
    const items: unknown[] = [];
    let cursor: unknown;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const asked: JsonRpcMessage = { ...message, params: cursor ? { cursor } : {} };
      const answer = await this.members.judged(call, member, asked, askedFor(asked));
      if (answer.error) {
        throw new MemberFailed(member, answer);
      }
      const body = (answer.result ?? {}) as Params;
      items.push(...exposedItems(method, member, body[LISTS[method].items]));
      cursor = body.nextCursor;
      if (typeof cursor !== 'string') {
        break;
      }
    }
    return items;
  }

  /** tools/call, prompts/get: the member the prefix names, the item under its own name. */
  private async byName(
    call: McpCall,
    message: JsonRpcMessage,
    params: Params,
  ): Promise<JsonRpcMessage> {
    const target = this.targetOf(call, message, params);
    if ('unknown' in target) {
      return target.unknown;
    }
    return this.members.judged(call, target.member, target.own, askedFor(target.own));
  }

  private targetOf(
    call: McpCall,
    message: JsonRpcMessage,
    params: Params,
  ): { member: VirtualMember; own: JsonRpcMessage } | { unknown: JsonRpcMessage } {
    const exposed = typeof params.name === 'string' ? params.name : '';
    const found = memberOfName(this.membersOf(call), exposed);
    const filter = message.method === 'prompts/get' ? 'prompts' : 'tools';
    const filtered = found?.member[filter];
    if (!found || (filtered && !filtered.includes(found.name))) {
      const noun = filter === 'tools' ? 'tool' : 'prompt';
      return { unknown: rpcError(message.id, INVALID_PARAMS, `Unknown ${noun}: ${exposed}`) };
    }
    return { member: found.member, own: { ...message, params: { ...params, name: found.name } } };
  }

  /** resources/*: the member that offers the URI (by its lists; the URI is not renamed, T79). */
  private async byUri(
    call: McpCall,
    message: JsonRpcMessage,
    params: Params,
  ): Promise<JsonRpcMessage> {
    const uri = typeof params.uri === 'string' ? params.uri : '';
    for (const member of this.membersOf(call)) {
      const listed = await Promise.all([
        this.members.lookup(call, member, 'resources/list', {}).catch(() => undefined),
        this.members.lookup(call, member, 'resources/templates/list', {}).catch(() => undefined),
      ]);
      const resources = exposedItems('resources/list', member, resultOf(listed[0]).resources);
      const templates = exposedItems(
        'resources/templates/list',
        member,
        resultOf(listed[1]).resourceTemplates,
      );
      if (offersUri({ resources, templates }, uri)) {
        return this.members.judged(call, member, message, askedFor(message));
      }
    }
    return rpcError(message.id, INVALID_PARAMS, `Resource not found: ${uri}`, { uri });
  }

  private membersOf(call: McpCall): VirtualMember[] {
    return call.route.server.members ?? [];
  }
}

function failedAnswer(error: unknown): JsonRpcMessage {
  if (error instanceof MemberFailed) {
    return error.answer;
  }
  throw error;
}

function askedFor(message: JsonRpcMessage): AskedFor {
  const tool = toolOf(message);
  return {
    method: message.method!,
    ...(tool ? { tool } : {}),
    resendDigest: resendDigestOf(message),
  };
}

function result(message: JsonRpcMessage, value: unknown): JsonRpcMessage {
  return { jsonrpc: '2.0', id: message.id, result: value };
}

function resultOf(message: JsonRpcMessage | undefined): Params {
  return (message?.result ?? {}) as Params;
}
