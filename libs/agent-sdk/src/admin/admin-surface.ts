import { AgentConfig } from '../config/agent-config';
import { WebhookVerificationError } from '../errors';
import { describe } from '../auth/token-provider';
import { verifyWebhook } from '../webhooks/verify-webhook';
import { HeaderBag, REFRESH_EVENT_TYPES } from '../webhooks/webhook-headers';
import { configureFrom, missingAddresses, parseConfigureBody } from './configure-body';
import { RecentDeliveries } from './recent-deliveries';

export interface AdminRequest {
  method: string;
  path: string;
  headers: HeaderBag;
  rawBody: Buffer;
}

export interface AdminResponse {
  status: number;
  body: Record<string, unknown>;
}

export interface AdminSurfaceOptions {
  /** Already configured (from the environment, say); unconfigured until `/configure` otherwise. */
  config?: AgentConfig;
  onConfigure?: (config: AgentConfig) => void | Promise<void>;
  refresh?: () => void | Promise<void>;
  webhookToleranceSeconds?: number;
}

export const ADMIN_MAX_BODY_BYTES = 1024 * 1024;

export class AdminSurface {
  private config?: AgentConfig;
  private readonly deliveries = new RecentDeliveries();

  constructor(private readonly options: AdminSurfaceOptions = {}) {
    this.config = options.config;
  }

  get isConfigured(): boolean {
    return this.config !== undefined;
  }

  get currentConfig(): AgentConfig | undefined {
    return this.config;
  }

  async handle(request: AdminRequest): Promise<AdminResponse> {
    const route = `${request.method.toUpperCase()} ${request.path.replace(/\/+$/, '') || '/'}`;
    switch (route) {
      case 'POST /configure':
        return this.configure(request.rawBody);
      case 'POST /refresh':
        return this.refresh();
      case 'POST /webhook':
        return this.webhook(request);
      case 'GET /status':
        return this.status();
      default:
        return ROUTES.has(route.split(' ')[1] ?? '')
          ? error(405, 'method not allowed')
          : error(404, 'not found');
    }
  }

  status(): AdminResponse {
    return {
      status: 200,
      body: { configured: this.isConfigured, agent_id: this.config?.agentId ?? null },
    };
  }

  private async configure(rawBody: Buffer): Promise<AdminResponse> {
    const json = parseJson(rawBody);
    if (json === INVALID_JSON) {
      return error(400, 'body is not JSON');
    }
    const { body, errors } = parseConfigureBody(json);
    const reported = new Set(errors.map((e) => e.field));
    errors.push(...missingAddresses(body, this.config).filter((e) => !reported.has(e.field)));
    if (errors.length > 0) {
      return error(400, 'invalid configuration', errors);
    }
    const next = configureFrom(body, this.config);
    this.config = next;
    try {
      await this.options.onConfigure?.(next);
    } catch (cause) {
      return error(502, `configured, but applying it failed: ${describe(cause)}`);
    }
    return { status: 200, body: { configured: true, agent_id: next.agentId } };
  }

  private async refresh(): Promise<AdminResponse> {
    if (!this.options.refresh) {
      return error(501, 'no refresh callback is set');
    }
    if (!this.config) {
      return error(409, 'not configured');
    }
    return this.runRefresh({ status: 'refreshed' });
  }

  private async webhook(request: AdminRequest): Promise<AdminResponse> {
    if (!this.config) {
      return error(409, 'not configured');
    }
    if (!this.config.webhookSecret) {
      return error(503, 'no webhook secret is configured');
    }
    let verified;
    try {
      verified = verifyWebhook({
        secret: this.config.webhookSecret,
        headers: request.headers,
        rawBody: request.rawBody,
        toleranceSeconds: this.options.webhookToleranceSeconds,
      });
    } catch (cause) {
      if (cause instanceof WebhookVerificationError) {
        return error(401, `invalid webhook: ${cause.message}`);
      }
      throw cause;
    }
    if (!REFRESH_EVENT_TYPES.includes(verified.eventType)) {
      return { status: 200, body: { status: 'ignored' } };
    }
    // D19: receivers deduplicate on the signed body's id; a redelivery is acknowledged again.
    if (!this.deliveries.remember(verified.deliveryId, verified.timestamp)) {
      return { status: 200, body: { status: 'ack', duplicate: true } };
    }
    const answer = await this.runRefresh({ status: 'ack' });
    if (answer.status !== 200) {
      this.deliveries.forget(verified.deliveryId);
    }
    return answer;
  }

  private async runRefresh(success: Record<string, unknown>): Promise<AdminResponse> {
    try {
      await this.options.refresh?.();
    } catch (cause) {
      return error(502, `refresh failed: ${describe(cause)}`);
    }
    return { status: 200, body: success };
  }
}

const ROUTES = new Set(['/configure', '/refresh', '/webhook', '/status']);
const INVALID_JSON = Symbol('invalid JSON');

function parseJson(raw: Buffer): unknown {
  try {
    return raw.length === 0 ? {} : (JSON.parse(raw.toString('utf8')) as unknown);
  } catch {
    return INVALID_JSON;
  }
}

function error(
  status: number,
  detail: string,
  errors?: { field: string; message: string }[],
): AdminResponse {
  return { status, body: { status: 'error', detail, ...(errors ? { errors } : {}) } };
}
