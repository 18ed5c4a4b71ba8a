import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { Json, McpWorld } from '../mcp/mcp-world';

/** A person of the test tenant, signed in with a password (the console's token, D56). */
export interface TestPerson {
  id: string;
  email: string;
  password: string;
  /** The person's own token: audience `{base_url}`, what the console holds. */
  token: string;
}

export interface HumanAnswer {
  status: number;
  body: Json;
  headers: Headers;
}

/**
 * People talking to agents through `/relay/human/{agentId}` (D43, D56): a person of the tenant,
 * their USER_TO_AGENT subscription, and raw A2A JSON-RPC posts with their own token.
 */
export class HumanWorld {
  constructor(readonly world: McpWorld) {}

  /** A user created by the administrator, known to the relay, signed in with their password. */
  async person(name = `person-${randomUUID().slice(0, 8)}`): Promise<TestPerson> {
    const email = `${name}@${this.world.tenant}.example`;
    const password = `Pw-${randomUUID()}`;
    const user = await this.world.ok<{ id: string }>('POST', '/tenant-auth/v1/users', {
      email,
      displayName: name,
      password,
    });
    const token = await McpWorld.token(this.world.platform.baseUrl, {
      grant_type: 'password',
      tenant: this.world.tenant,
      username: email,
      password,
    });
    return { id: user.id, email, password, token };
  }

  /** D32, D43: the person may talk to the agent (once the relay has heard of the person). */
  async subscribe(userId: string, agentId: string): Promise<string> {
    return eventually(async () => {
      const created = await this.world.api<{ id: string }>('POST', '/relay/v1/subscriptions', {
        kind: 'USER_TO_AGENT',
        sourceId: userId,
        targetId: agentId,
      });
      expect(created.status).toBe(201);
      return created.body.id;
    });
  }

  humanUrl(agentId: string): string {
    return `${this.world.platform.baseUrl}/relay/human/${agentId}`;
  }

  /** One A2A JSON-RPC request of the person's client to the agent. */
  async post(
    token: string,
    agentId: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<HumanAnswer> {
    const response = await fetch(this.humanUrl(agentId), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...headers,
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : {}) as Json,
      headers: response.headers,
    };
  }
}

/** A 0.3 `message/send` (the specification's name, D38) with one text part. */
export function messageSend(text: string, id: number | string = 1, messageId = randomUUID()): Json {
  return {
    jsonrpc: '2.0',
    id,
    method: 'message/send',
    params: {
      message: { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text }] },
    },
  };
}

/** The text of every text part of a 0.3 task's artifacts (or of a message answer). */
export function answerText(body: Json): string {
  const result = body.result as
    { artifacts?: Array<{ parts: Json[] }>; parts?: Json[] } | undefined;
  const parts = [...(result?.artifacts ?? []).flatMap((a) => a.parts), ...(result?.parts ?? [])];
  return parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('\n');
}
