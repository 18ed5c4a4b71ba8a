import { ConfigurationError } from '../errors';

export interface AgentConfig {
  agentId: string;
  clientSecret: string;
  /** Verifies webhooks from the platform (D19); without it the admin surface answers 503. */
  webhookSecret?: string;
  baseUrl: string;
  /** {token_url}, without a trailing slash. Must come from the same environment as baseUrl (Authentication 5). */
  tokenUrl: string;
  timeoutMs: number;
  /** Retries after a 5xx or a network failure. */
  maxRetries: number;
  /** First backoff delay; each retry doubles it (capped at {@link MAX_BACKOFF_MS}). */
  retryBaseDelayMs: number;
}

/** The development deployment: `npm start` of the platform (D3's PUBLIC_BASE_URL default). */
export const DEFAULT_BASE_URL = 'http://localhost:8080';
/** D6: the token endpoint of the development deployment. */
export const DEFAULT_TOKEN_URL = `${DEFAULT_BASE_URL}/tenant-auth/v1/oauth/token`;
export const DEFAULT_ENV_PREFIX = 'SVC';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
export const MAX_BACKOFF_MS = 10_000;

export interface AgentConfigInput {
  agentId?: string;
  agent_id?: string;
  clientSecret?: string;
  client_secret?: string;
  webhookSecret?: string;
  webhook_secret?: string;
  baseUrl?: string;
  base_url?: string;
  tokenUrl?: string;
  token_url?: string;
  timeoutMs?: number;
  maxRetries?: number;
  retryBaseDelayMs?: number;
}

export type Environment = Record<string, string | undefined>;

export interface LoadConfigOptions {
  /** `SVC` by default; `ACME` reads `ACME_AGENT_ID` and so on. */
  prefix?: string;
  env?: Environment;
}

export function stripTrailingSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

export function normalizePrefix(prefix: string = DEFAULT_ENV_PREFIX): string {
  const trimmed = prefix.trim().replace(/_+$/, '');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(trimmed)) {
    throw new ConfigurationError(`invalid environment prefix "${prefix}"`, 'prefix');
  }
  return trimmed;
}

export function readVariable(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function parseSeconds(value: string, variable: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new ConfigurationError(`${variable} must be a positive number of seconds`, variable);
  }
  return Math.round(seconds * 1000);
}

function parseRetries(value: string, variable: string): number {
  const retries = Number(value);
  if (!Number.isInteger(retries) || retries < 0 || retries > 100) {
    throw new ConfigurationError(`${variable} must be a whole number from 0 to 100`, variable);
  }
  return retries;
}

function required(value: string | undefined, variable: string): string {
  if (!value) {
    throw new ConfigurationError(`${variable} is required`, variable);
  }
  return value;
}

export function loadConfig(options: LoadConfigOptions = {}): AgentConfig {
  const env = options.env ?? process.env;
  const prefix = normalizePrefix(options.prefix);
  const name = (suffix: string): string => `${prefix}_${suffix}`;
  const timeout = readVariable(env, name('TIMEOUT'));
  const retries = readVariable(env, name('MAX_RETRIES'));
  return {
    agentId: required(readVariable(env, name('AGENT_ID')), name('AGENT_ID')),
    clientSecret: required(readVariable(env, name('CLIENT_SECRET')), name('CLIENT_SECRET')),
    webhookSecret: readVariable(env, name('WEBHOOK_SECRET')),
    baseUrl: stripTrailingSlashes(readVariable(env, name('BASE_URL')) ?? DEFAULT_BASE_URL),
    tokenUrl: stripTrailingSlashes(readVariable(env, name('TOKEN_URL')) ?? DEFAULT_TOKEN_URL),
    timeoutMs: timeout ? parseSeconds(timeout, name('TIMEOUT')) : DEFAULT_TIMEOUT_MS,
    maxRetries: retries ? parseRetries(retries, name('MAX_RETRIES')) : DEFAULT_MAX_RETRIES,
    retryBaseDelayMs: DEFAULT_RETRY_BASE_DELAY_MS,
  };
}

export function resolveConfig(input: AgentConfigInput): AgentConfig {
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = input.maxRetries ?? DEFAULT_MAX_RETRIES;
  const retryBaseDelayMs = input.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  if (!(timeoutMs > 0)) {
    throw new ConfigurationError('timeoutMs must be positive', 'timeoutMs');
  }
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new ConfigurationError('maxRetries must be a whole number from 0', 'maxRetries');
  }
  if (!(retryBaseDelayMs >= 0)) {
    throw new ConfigurationError('retryBaseDelayMs must not be negative', 'retryBaseDelayMs');
  }
  const webhookSecret = input.webhookSecret ?? input.webhook_secret;
  return {
    agentId: required(input.agentId ?? input.agent_id, 'agentId'),
    clientSecret: required(input.clientSecret ?? input.client_secret, 'clientSecret'),
    ...(webhookSecret ? { webhookSecret } : {}),
    baseUrl: stripTrailingSlashes(input.baseUrl ?? input.base_url ?? DEFAULT_BASE_URL),
    tokenUrl: stripTrailingSlashes(input.tokenUrl ?? input.token_url ?? DEFAULT_TOKEN_URL),
    timeoutMs,
    maxRetries,
    retryBaseDelayMs,
  };
}

/** Wrappers always use the default timeout and retries. */
export function runtimeConfigFromEnv(
  options: LoadConfigOptions & { readWebhookSecret: boolean },
): AgentConfig | undefined {
  const env = options.env ?? process.env;
  const prefix = normalizePrefix(options.prefix);
  const [agentId, clientSecret, baseUrl, tokenUrl] = [
    'AGENT_ID',
    'CLIENT_SECRET',
    'BASE_URL',
    'TOKEN_URL',
  ].map((suffix) => readVariable(env, `${prefix}_${suffix}`));
  if (!agentId || !clientSecret || !baseUrl || !tokenUrl) {
    return undefined;
  }
  const webhookSecret = options.readWebhookSecret
    ? readVariable(env, `${prefix}_WEBHOOK_SECRET`)
    : undefined;
  return resolveConfig({ agentId, clientSecret, baseUrl, tokenUrl, webhookSecret });
}
