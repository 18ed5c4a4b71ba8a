import { A2AClientFactory } from '../a2a/a2a-client-factory';
import { AdminSurface } from '../admin/admin-surface';
import { AgentClient, AgentClientOptions } from '../api/agent-client';
import { AgentConfig } from '../config/agent-config';
import { ConfigurationError } from '../errors';
import {
  AgentDirectory,
  DIRECTORY_REFRESH_INTERVAL_MS,
  DirectoryListener,
} from '../directory/agent-directory';
import { McpRelayClient, McpRelayClientOptions } from '../mcp/mcp-relay-client';

export interface AgentRuntimeOptions extends AgentClientOptions {
  /** Configured from the start; otherwise it waits for `POST /admin/configure`. */
  config?: AgentConfig;
  directoryRefreshIntervalMs?: number;
  webhookToleranceSeconds?: number;
  onDirectoryChange?: DirectoryListener;
}

/** Unconfigured, it runs standalone (no discovery) until `/admin/configure`. */
export class AgentRuntime {
  readonly admin: AdminSurface;
  private state?: { client: AgentClient; directory: AgentDirectory };
  private started = false;

  constructor(private readonly options: AgentRuntimeOptions = {}) {
    this.admin = new AdminSurface({
      config: options.config,
      webhookToleranceSeconds: options.webhookToleranceSeconds,
      onConfigure: (config) => this.configure(config),
      refresh: async () => {
        await this.directory.refresh();
      },
    });
    if (options.config) {
      this.state = this.build(options.config);
    }
  }

  get isConfigured(): boolean {
    return this.state !== undefined;
  }

  get client(): AgentClient {
    return this.require().client;
  }

  get directory(): AgentDirectory {
    return this.require().directory;
  }

  async start(): Promise<void> {
    this.started = true;
    await this.state?.directory.start();
  }

  stop(): void {
    this.started = false;
    this.state?.directory.stop();
  }

  mcp(mcpServerId: string, options?: McpRelayClientOptions): McpRelayClient {
    return this.client.mcp(mcpServerId, options);
  }

  a2a(): A2AClientFactory {
    return new A2AClientFactory(this.client);
  }

  private async configure(config: AgentConfig): Promise<void> {
    this.state?.directory.stop();
    this.state = this.build(config);
    if (this.started) {
      await this.state.directory.start();
    } else {
      await this.state.directory.refresh();
    }
  }

  private build(config: AgentConfig): { client: AgentClient; directory: AgentDirectory } {
    const client = new AgentClient(config, this.options);
    const directory = new AgentDirectory(
      client,
      this.options.directoryRefreshIntervalMs ?? DIRECTORY_REFRESH_INTERVAL_MS,
    );
    if (this.options.onDirectoryChange) {
      directory.onChange(this.options.onDirectoryChange);
    }
    return { client, directory };
  }

  private require(): { client: AgentClient; directory: AgentDirectory } {
    if (!this.state) {
      throw new ConfigurationError('the agent is not configured (standalone)', 'agentId');
    }
    return this.state;
  }
}
