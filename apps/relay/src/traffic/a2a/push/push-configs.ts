import { JsonRpcMessage } from '../../mcp/json-rpc';

/** T40: push configurations in A2A 0.3 and 1.0 shapes. Pure: the service does the I/O. */
type Json = Record<string, unknown>;

export type PushOperation = 'set' | 'get' | 'list' | 'delete' | 'send';

const OPERATIONS: ReadonlyMap<string, PushOperation> = new Map([
  ['tasks/pushNotificationConfig/set', 'set'],
  ['CreateTaskPushNotificationConfig', 'set'],
  ['tasks/pushNotificationConfig/get', 'get'],
  ['GetTaskPushNotificationConfig', 'get'],
  ['tasks/pushNotificationConfig/list', 'list'],
  ['ListTaskPushNotificationConfigs', 'list'],
  ['tasks/pushNotificationConfig/delete', 'delete'],
  ['DeleteTaskPushNotificationConfig', 'delete'],
  ['message/send', 'send'],
  ['message/stream', 'send'],
  ['SendMessage', 'send'],
  ['SendStreamingMessage', 'send'],
]);

/** The method a push's hop names (T41): a push answers no request of the caller's. */
export const PUSH_HOP_METHOD = 'tasks/pushNotification';

/** Where the relay takes the target's pushes: `{PUBLIC_BASE_URL}{PUSH_PATH}/{id}` (T40). */
export const PUSH_PATH = '/relay/a2a-push';

/** What stands where a push credential was, in what a policy and the audit trail see. */
export const REDACTED = '[redacted]';

const MAX_URL = 2_048;
const MAX_TOKEN = 4_096;
const MAX_ID = 256;

export interface CallerPushConfig {
  url: string;
  id?: string;
  /** The task it is for, when the request names one (a new task's id comes later, T42). */
  taskId?: string;
  token?: string;
  /** 0.3 `{schemes, credentials}` or 1.0 `{scheme, credentials}`, kept as given. */
  authentication?: Json;
}

/** Where a configuration sits in a request: the object holding `url`, `token`, `authentication`. */
type ConfigPath = string[];

export interface PushRequest {
  operation: PushOperation;
  /** The configuration the request gives (set, and a message with one), with where it sits. */
  config?: { value: CallerPushConfig; path: ConfigPath };
  /** get, delete: the task and configuration named (0.3 `{id, pushNotificationConfigId}`, 1.0 `{taskId, id}`). */
  named?: { taskId?: string; configId?: string };
}

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function at(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((inner, key) => (isRecord(inner) ? inner[key] : undefined), value);
}

export function pushOperationOf(method: string | undefined): PushOperation | undefined {
  return method === undefined ? undefined : OPERATIONS.get(method);
}

/** D12: undefined when the request names no push configuration. */
export function pushRequestOf(
  request: JsonRpcMessage,
): PushRequest | { invalid: string } | undefined {
  const operation = pushOperationOf(request.method);
  const params = isRecord(request.params) ? request.params : {};
  switch (operation) {
    case undefined:
      return undefined;
    case 'set': {
      const path = isRecord(params.pushNotificationConfig) ? ['pushNotificationConfig'] : [];
      return withConfig(operation, params, path, optionalString(params.taskId));
    }
    case 'send': {
      const configuration = isRecord(params.configuration) ? params.configuration : {};
      const key = ['pushNotificationConfig', 'taskPushNotificationConfig'].find((k) =>
        isRecord(configuration[k]),
      );
      if (!key) {
        return undefined;
      }
      const taskId =
        optionalString(at(params, ['message', 'taskId'])) ??
        optionalString(at(configuration, [key, 'taskId']));
      return withConfig(operation, params, ['configuration', key], taskId);
    }
    case 'get':
    case 'list':
    case 'delete':
      return {
        operation,
        named: {
          taskId: optionalString(params.taskId) ?? optionalString(params.id),
          configId:
            optionalString(params.pushNotificationConfigId) ??
            (typeof params.taskId === 'string' ? optionalString(params.id) : undefined),
        },
      };
  }
}

function withConfig(
  operation: PushOperation,
  params: Json,
  path: ConfigPath,
  taskId: string | undefined,
): PushRequest | { invalid: string } {
  const raw = at(params, path);
  const where = ['params', ...path].join('.');
  if (!isRecord(raw)) {
    return { invalid: `${where} must be an object` };
  }
  if (typeof raw.url !== 'string' || raw.url.length === 0 || raw.url.length > MAX_URL) {
    return { invalid: `${where}.url must be a URL of at most ${MAX_URL} characters` };
  }
  const checks: Array<[string, unknown, number]> = [
    ['token', raw.token, MAX_TOKEN],
    ['id', raw.id, MAX_ID],
  ];
  for (const [name, value, max] of checks) {
    if (
      value !== undefined &&
      value !== null &&
      (typeof value !== 'string' || value.length > max)
    ) {
      return { invalid: `${where}.${name} must be a string of at most ${max} characters` };
    }
  }
  const authentication = raw.authentication;
  if (authentication !== undefined && authentication !== null && !isRecord(authentication)) {
    return { invalid: `${where}.authentication must be an object` };
  }
  const id = optionalString(raw.id);
  const token = optionalString(raw.token);
  return {
    operation,
    config: {
      path,
      value: {
        url: raw.url,
        ...(id ? { id } : {}),
        ...(taskId ? { taskId } : {}),
        ...(token ? { token } : {}),
        ...(isRecord(authentication) ? { authentication } : {}),
      },
    },
  };
}

export function withConfigAt(
  message: JsonRpcMessage,
  path: ConfigPath,
  rewrite: (config: Json) => Json,
): JsonRpcMessage {
  const rewriteAt = (value: unknown, rest: readonly string[]): unknown => {
    if (!isRecord(value)) {
      return value;
    }
    if (rest.length === 0) {
      return rewrite(value);
    }
    const [head, ...tail] = rest;
    return head in value ? { ...value, [head]: rewriteAt(value[head], tail) } : value;
  };
  return { ...message, params: rewriteAt(message.params, path) as Json };
}

/** The configuration without its credentials' values: what a policy and the audit trail see. */
export function redacted(config: Json): Json {
  const copy: Json = { ...config };
  if (typeof copy.token === 'string' && copy.token.length > 0) {
    copy.token = REDACTED;
  }
  if (isRecord(copy.authentication) && copy.authentication.credentials !== undefined) {
    copy.authentication = { ...copy.authentication, credentials: REDACTED };
  }
  return copy;
}

/** List answers differ: 0.3 an array, 1.0 `{configs}`; 0.3 nests `pushNotificationConfig`. */
export function mapAnswerConfigs(
  operation: PushOperation,
  answer: JsonRpcMessage,
  rewrite: (config: Json, index: number, taskId?: string) => Json,
): JsonRpcMessage {
  if (answer.error || (!isRecord(answer.result) && !Array.isArray(answer.result))) {
    return answer;
  }
  let index = 0;
  const one = (holder: unknown): unknown => {
    if (!isRecord(holder)) {
      return holder;
    }
    const taskId = optionalString(holder.taskId);
    if (isRecord(holder.pushNotificationConfig)) {
      return {
        ...holder,
        pushNotificationConfig: rewrite(holder.pushNotificationConfig, index++, taskId),
      };
    }
    return typeof holder.url === 'string' ? rewrite(holder, index++, taskId) : holder;
  };
  const result = answer.result;
  switch (operation) {
    case 'set':
    case 'get':
      return { ...answer, result: one(result) };
    case 'list':
      if (Array.isArray(result)) {
        return { ...answer, result: result.map(one) };
      }
      return isRecord(result) && Array.isArray(result.configs)
        ? { ...answer, result: { ...result, configs: result.configs.map(one) } }
        : answer;
    case 'delete':
    case 'send':
      return answer;
  }
}

/** The relay's callback id in a URL it gave a target, undefined for any other URL. */
export function callbackIdOf(url: unknown): string | undefined {
  if (typeof url !== 'string') {
    return undefined;
  }
  const match =
    /\/relay\/a2a-push\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(url);
  return match?.[1]?.toLowerCase();
}

/** T43: as the A2A SDK's sender would send them (0.3's first scheme of its list). */
export function callerAuthHeaders(
  config: Pick<CallerPushConfig, 'token' | 'authentication'>,
): Record<string, string> {
  const auth = config.authentication;
  const scheme =
    optionalString(auth?.scheme) ??
    (Array.isArray(auth?.schemes) ? optionalString(auth.schemes[0]) : undefined);
  const credentials = optionalString(auth?.credentials);
  if (scheme && credentials) {
    return { authorization: `${scheme} ${credentials}` };
  }
  return config.token ? { 'x-a2a-notification-token': config.token } : {};
}
