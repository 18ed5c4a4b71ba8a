import { createHash } from 'node:crypto';

import { JsonRpcMessage } from '../mcp/json-rpc';

/** D38: A2A 0.3 method names and their 1.0 equivalents as the official SDK speaks them. */
const STREAMING_METHODS: ReadonlySet<string> = new Set([
  'message/stream',
  'tasks/resubscribe',
  'SendStreamingMessage',
  'SubscribeToTask',
]);

/** The task states after which a task changes no more, in both protocols' spellings. */
const FINAL_STATES: ReadonlySet<string> = new Set(
  [
    'completed',
    'failed',
    'canceled',
    'rejected',
    'unknown',
    'input-required',
    'auth-required',
  ].flatMap((state) => [state, `TASK_STATE_${state.replace('-', '_').toUpperCase()}`]),
);

/** States after which a task never changes again (0.3 names, 1.0 enums in both spellings). */
const TERMINAL_STATES: ReadonlySet<string> = new Set([
  ...['completed', 'failed', 'canceled', 'rejected'].flatMap((state) => [
    state,
    `TASK_STATE_${state.toUpperCase()}`,
  ]),
  'TASK_STATE_CANCELLED',
]);

/** traffic.md T113: whether an answer or a push says its task has ended for good. */
export function endsTask(message: JsonRpcMessage): boolean {
  const state = taskFacts(message).a2aTaskState;
  return state !== undefined && TERMINAL_STATES.has(state);
}

/** 1.0 results wrap their object (`{task}`, `{statusUpdate}` …); 0.3 results are the object. */
const WRAPPERS = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function isStreamingMethod(method: string): boolean {
  return STREAMING_METHODS.has(method);
}

/** D38, POLICY.md `message.text`: data parts are in `message.json`, file parts only by digest. */
export function a2aText(message: JsonRpcMessage): string {
  const texts: string[] = [];
  collectTexts(message.params ?? message.result ?? null, texts);
  if (message.error) {
    texts.push(message.error.message);
  }
  return texts.join('\n');
}

function collectTexts(value: unknown, texts: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((item) => collectTexts(item, texts));
    return;
  }
  if (!isRecord(value)) {
    return;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'parts' && Array.isArray(inner)) {
      for (const part of inner) {
        if (isRecord(part) && typeof part.text === 'string') {
          texts.push(part.text);
        }
      }
    } else {
      collectTexts(inner, texts);
    }
  }
}

/** Where a file part's bytes sat in a message, so a masked copy can carry them on. */
export interface FileBytes {
  path: (string | number)[];
  bytes: string;
}

/** D38: file bytes as `sha256:<hex>`; `files` lets {@link withFileBytes} restore them. */
export function withoutFileBytes(message: JsonRpcMessage): {
  json: JsonRpcMessage;
  files: FileBytes[];
} {
  const files: FileBytes[] = [];
  const json = replaceBytes(message, [], files) as JsonRpcMessage;
  return { json, files };
}

function replaceBytes(value: unknown, path: (string | number)[], files: FileBytes[]): unknown {
  if (Array.isArray(value)) {
    return value.map((item, i) => replaceBytes(item, [...path, i], files));
  }
  if (!isRecord(value)) {
    return value;
  }
  const copy: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    const isBytes =
      typeof inner === 'string' &&
      ((key === 'bytes' && path[path.length - 1] === 'file') || key === 'raw');
    if (isBytes) {
      files.push({ path: [...path, key], bytes: inner });
      copy[key] = `sha256:${createHash('sha256').update(inner).digest('hex')}`;
    } else {
      copy[key] = replaceBytes(inner, [...path, key], files);
    }
  }
  return copy;
}

/** The forwarded message with each file's bytes back where its digest stands (unless masked). */
export function withFileBytes(message: JsonRpcMessage, files: FileBytes[]): JsonRpcMessage {
  let current: unknown = message;
  for (const file of files) {
    current = setAt(current, file.path, (old) =>
      typeof old === 'string' && old.startsWith('sha256:') ? file.bytes : old,
    );
  }
  return current as JsonRpcMessage;
}

function setAt(
  container: unknown,
  path: (string | number)[],
  rewrite: (value: unknown) => unknown,
): unknown {
  if (path.length === 0) {
    return rewrite(container);
  }
  const [head, ...rest] = path;
  if (Array.isArray(container) && typeof head === 'number' && head < container.length) {
    const copy = [...(container as unknown[])];
    copy[head] = setAt(copy[head], rest, rewrite);
    return copy;
  }
  if (isRecord(container) && typeof head === 'string' && head in container) {
    return { ...container, [head]: setAt(container[head], rest, rewrite) };
  }
  return container;
}

function resultObject(result: unknown): Json | undefined {
  if (!isRecord(result)) {
    return undefined;
  }
  const wrapper = WRAPPERS.find((key) => isRecord(result[key]));
  return wrapper ? (result[wrapper] as Json) : result;
}

export function taskFacts(message: JsonRpcMessage): { a2aTaskId?: string; a2aTaskState?: string } {
  const object = resultObject(message.result);
  if (!object) {
    return {};
  }
  const status = isRecord(object.status) ? object.status : undefined;
  const taskId = typeof object.taskId === 'string' ? object.taskId : object.id;
  const state = status?.state;
  return {
    ...(typeof taskId === 'string' && (status || 'taskId' in object) ? { a2aTaskId: taskId } : {}),
    ...(typeof state === 'string' ? { a2aTaskState: state } : {}),
  };
}

/** D44: the `contextId` a request's message or an answer names (a conversation's first key). */
export function contextIdOf(message: JsonRpcMessage): string | undefined {
  const params = isRecord(message.params) ? message.params : undefined;
  const holder = isRecord(params?.message) ? params.message : resultObject(message.result);
  return typeof holder?.contextId === 'string' ? holder.contextId : undefined;
}

/** A 0.3 `final` flag, or a task state after which the task waits or ends. */
export function isFinalEvent(message: JsonRpcMessage): boolean {
  if (message.error) {
    return true;
  }
  const result = message.result;
  if (!isRecord(result)) {
    return false;
  }
  if (isRecord(result.message) || result.kind === 'message' || result.final === true) {
    return true;
  }
  if (isRecord(result.artifactUpdate) || result.kind === 'artifact-update') {
    return false;
  }
  const state = taskFacts(message).a2aTaskState;
  return state !== undefined && FINAL_STATES.has(state);
}

/** D33 WARN in the message's `metadata`; an error answer has none and passes unchanged. */
export function withA2aWarnings(message: JsonRpcMessage, warnings: string[]): JsonRpcMessage {
  const add = (holder: Json): Json => {
    const metadata = isRecord(holder.metadata) ? holder.metadata : {};
    return { ...holder, metadata: { ...metadata, agp: { warnings } } };
  };
  if (message.method !== undefined) {
    const params = isRecord(message.params) ? message.params : {};
    return isRecord(params.message)
      ? { ...message, params: { ...params, message: add(params.message) } }
      : { ...message, params: add(params) };
  }
  const result = message.result;
  if (!isRecord(result)) {
    return message;
  }
  const wrapper = WRAPPERS.find((key) => isRecord(result[key]));
  return wrapper
    ? { ...message, result: { ...result, [wrapper]: add(result[wrapper] as Json) } }
    : { ...message, result: add(result) };
}
