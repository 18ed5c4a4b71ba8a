import { createHash, randomBytes, randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';

import { EgressOptions, checkEgressUrl } from '../../../common/egress-policy';
import { EGRESS_OPTIONS, PUBLIC_BASE_URL } from '../../../config/relay-config.module';
import { RELAY_DATABASE } from '../../../database/tokens';
import { CredentialCipher } from '../../../mcp-servers/credential-cipher';
import { HopPipeline } from '../../pipeline/hop-pipeline';
import { JsonRpcMessage, RPC_INVALID_PARAMS, rpcError } from '../../mcp/json-rpc';
import { A2aCall, a2aHopOf } from '../a2a-call';
import { A2aAnswerView } from '../a2a-exchange';
import { taskFacts } from '../a2a-messages';
import {
  CallerPushConfig,
  PUSH_PATH,
  PushOperation,
  PushRequest,
  REDACTED,
  callbackIdOf,
  mapAnswerConfigs,
  pushRequestOf,
  redacted,
  withConfigAt,
} from './push-configs';
import { PushConfigsRepository, StoredPushConfig } from './push-configs.repository';

type Json = Record<string, unknown>;

/** `data.agpCode` of a push configuration the relay refuses (T40). */
export const PUSH_CONFIG_REFUSED = 'push_config_refused';

/** The caller's push credentials as sealed at rest (D37). */
export interface PushCredentials {
  token?: string;
  authentication?: Json;
}

/** What the relay does around one request that names push configurations (T40). */
export interface PushPlan {
  /** What the request's hop is judged on: the credentials of its configuration redacted. */
  hopMessage: JsonRpcMessage;
  /** The judged request as the target gets it: the relay's callback and token in the caller's place. */
  forward(judged: JsonRpcMessage): Promise<JsonRpcMessage>;
  /** How the target's answer is judged and delivered (the caller's own URL, not the relay's). */
  answerView?: A2aAnswerView;
}

export type PushAdmission =
  { kind: 'refused'; answer: JsonRpcMessage } | { kind: 'plan'; plan: PushPlan };

const NOTHING_TO_DO: Omit<PushPlan, 'hopMessage'> = {
  forward: (judged) => Promise.resolve(judged),
};

/**
 * Issue 30 § 4, T40–T42: a caller's push URL must pass D37; the relay keeps it sealed and gives
 * the target its own callback and token.
 */
@Injectable()
export class PushGovernance {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(EGRESS_OPTIONS) private readonly egress: EgressOptions,
    @Inject(PUBLIC_BASE_URL) private readonly baseUrl: string,
    private readonly configs: PushConfigsRepository,
    private readonly cipher: CredentialCipher,
    private readonly pipeline: HopPipeline,
  ) {}

  async admit(call: A2aCall, request: JsonRpcMessage): Promise<PushAdmission> {
    const asked = pushRequestOf(request);
    if (asked === undefined) {
      return { kind: 'plan', plan: { hopMessage: request, ...NOTHING_TO_DO } };
    }
    if ('invalid' in asked) {
      return this.refuse(call, request, `invalid push notification config: ${asked.invalid}`);
    }
    const config = asked.config;
    if (!config) {
      return {
        kind: 'plan',
        plan: {
          hopMessage: request,
          forward: NOTHING_TO_DO.forward,
          answerView: this.answerView(call, asked),
        },
      };
    }
    const hopMessage = withConfigAt(request, config.path, redacted);
    const why = checkEgressUrl(config.value.url, this.egress);
    if (why) {
      return this.refuse(
        call,
        hopMessage,
        `push notification URL refused (D37): ${config.value.url}: ${why}`,
      );
    }
    const hasSecret = await this.database.inTenant(call.tenantId, (tx) =>
      this.configs.hasSigningSecret(tx, call.tenantId, call.callerId),
    );
    if (!hasSecret) {
      return this.refuse(
        call,
        hopMessage,
        `pushes reach agent ${call.callerId} signed with its webhook secret (D19): ` +
          `set its webhookUrl (PATCH /relay/v1/agents/${call.callerId}) before asking for pushes`,
      );
    }
    const id = randomUUID();
    return {
      kind: 'plan',
      plan: {
        hopMessage,
        forward: (judged) => this.register(call, id, config, judged),
        answerView: this.answerView(call, asked, id),
      },
    };
  }

  callbackUrl(id: string): string {
    return `${this.baseUrl}${PUSH_PATH}/${id}`;
  }

  private async refuse(
    call: A2aCall,
    request: JsonRpcMessage,
    reason: string,
  ): Promise<PushAdmission> {
    const { decisionId, audited } = this.pipeline.refusing(a2aHopOf(call, 'REQUEST', request), {
      type: 'COMMUNICATION_AUDIT',
      action: 'BLOCK',
      reason,
    });
    await audited;
    const data = {
      agpCode: PUSH_CONFIG_REFUSED,
      reasons: [reason],
      decisionId,
      correlationId: call.correlationId,
    };
    return { kind: 'refused', answer: rpcError(request.id, RPC_INVALID_PARAMS, reason, data) };
  }

  /** Keeps the caller's configuration and puts the relay's callback and token in its place. */
  private async register(
    call: A2aCall,
    id: string,
    config: { value: CallerPushConfig; path: string[] },
    judged: JsonRpcMessage,
  ): Promise<JsonRpcMessage> {
    const token = randomBytes(32).toString('base64url');
    const { value } = config;
    const credentials: PushCredentials = {
      ...(value.token ? { token: value.token } : {}),
      ...(value.authentication ? { authentication: value.authentication } : {}),
    };
    const stored: StoredPushConfig = {
      id,
      tenantId: call.tenantId,
      callerId: call.callerId,
      targetId: call.targetId,
      ...(value.taskId ? { taskId: value.taskId } : {}),
      ...(value.id ? { configId: value.id } : {}),
      url: value.url,
      ...(Object.keys(credentials).length > 0
        ? { credentialsCiphertext: this.cipher.encrypt(JSON.stringify(credentials)) }
        : {}),
      tokenSha256: sha256(token),
    };
    await this.database.inTenant(call.tenantId, (tx) => this.configs.insert(tx, stored));
    return withConfigAt(judged, config.path, (held) => {
      const { authentication: _caller, ...rest } = held;
      return { ...rest, url: this.callbackUrl(id), token };
    });
  }

  /** T42: the relay's callback shown as the caller's URL until the verdict. */
  private answerView(call: A2aCall, asked: PushRequest, registered?: string): A2aAnswerView {
    const restore: Array<PushCredentials | undefined> = [];
    return {
      seen: async (answer) => {
        if (answer.error) {
          if (registered) {
            await this.inTenant(call, (tx) =>
              this.configs.deleteById(tx, call.tenantId, registered),
            );
          }
          return answer;
        }
        if (asked.operation === 'delete' && asked.named?.taskId) {
          const { taskId, configId } = asked.named;
          await this.inTenant(call, (tx) =>
            this.configs.deleteNamed(
              tx,
              call.tenantId,
              call.callerId,
              call.targetId,
              taskId,
              configId,
            ),
          );
          return answer;
        }
        if (asked.operation === 'send') {
          const taskId = taskFacts(answer).a2aTaskId;
          if (registered && taskId) {
            await this.inTenant(call, (tx) =>
              this.configs.learn(tx, call.tenantId, registered, { taskId }),
            );
          }
          return answer;
        }
        return this.callerView(call, asked.operation, answer, restore);
      },
      delivered: (judged) =>
        mapAnswerConfigs(asked.operation, judged, (config, index) => {
          const credentials = restore[index];
          return credentials ? withCredentials(config, credentials) : config;
        }),
    };
  }

  private async callerView(
    call: A2aCall,
    operation: PushOperation,
    answer: JsonRpcMessage,
    restore: Array<PushCredentials | undefined>,
  ): Promise<JsonRpcMessage> {
    const named: Array<{ id: string; taskId?: string; configId?: string }> = [];
    mapAnswerConfigs(operation, answer, (config, _index, taskId) => {
      const id = callbackIdOf(config.url);
      if (id) {
        named.push({ id, taskId, configId: typeof config.id === 'string' ? config.id : undefined });
      }
      return config;
    });
    const stored = await this.inTenant(call, async (tx) => {
      for (const facts of named) {
        await this.configs.learn(tx, call.tenantId, facts.id, facts);
      }
      const ids = named.map((facts) => facts.id);
      return this.configs.findMany(tx, call.tenantId, call.callerId, call.targetId, ids);
    });
    const byId = new Map(stored.map((config) => [config.id, config]));
    return mapAnswerConfigs(operation, answer, (config, index) => {
      const id = callbackIdOf(config.url);
      const mine = id ? byId.get(id) : undefined;
      if (!mine) {
        return config;
      }
      const credentials = this.credentialsOf(mine);
      restore[index] = credentials;
      const { token: _relay, authentication: _none, ...rest } = config;
      return redacted({ ...rest, url: mine.url, ...credentials });
    });
  }

  credentialsOf(config: StoredPushConfig): PushCredentials {
    return config.credentialsCiphertext
      ? (JSON.parse(this.cipher.decrypt(config.credentialsCiphertext)) as PushCredentials)
      : {};
  }

  private inTenant<T>(call: A2aCall, work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.database.inTenant(call.tenantId, work);
  }
}

function withCredentials(config: Json, credentials: PushCredentials): Json {
  const copy: Json = { ...config };
  if (copy.token === REDACTED && credentials.token) {
    copy.token = credentials.token;
  }
  const auth = copy.authentication;
  if (auth && typeof auth === 'object' && credentials.authentication) {
    const held = auth as Json;
    copy.authentication =
      held.credentials === REDACTED
        ? { ...held, credentials: credentials.authentication.credentials }
        : held;
  }
  return copy;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
