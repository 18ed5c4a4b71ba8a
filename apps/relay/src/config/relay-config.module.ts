import { DynamicModule, Module } from '@nestjs/common';

import { EgressOptions } from '../common/egress-policy';
import { HOP_TRACING_OPTIONS, HopTracingOptions } from '../traffic/tracing/hop-tracer';
import { decodeSecretsKey } from './secrets-key';

/** The AES-256 key of SECRETS_KEY (32 bytes): what seals upstream credentials (D37). */
export const SECRETS_KEY = Symbol('relay:secrets-key');
/** D37: `{allowPrivate}` from EGRESS_ALLOW_PRIVATE. */
export const EGRESS_OPTIONS = Symbol('relay:egress-options');
/** D3: `PUBLIC_BASE_URL` without its trailing slash: what proxied agent cards point at (D38). */
export const PUBLIC_BASE_URL = Symbol('relay:public-base-url');
/** payments.md PY20: `{url?}` from X402_FACILITATOR_URL. */
export const X402_FACILITATOR = Symbol('relay:x402-facilitator');

export interface X402FacilitatorOptions {
  url?: string;
}

export interface RelayConfig {
  secretsKey: string;
  egressAllowPrivate: boolean;
  publicBaseUrl: string;
  /** traffic.md T93. */
  hopTracing?: HopTracingOptions;
  x402FacilitatorUrl?: string;
}

@Module({})
export class RelayConfigModule {
  static forRoot(config: RelayConfig): DynamicModule {
    const egress: EgressOptions = { allowPrivate: config.egressAllowPrivate };
    const providers = [
      { provide: SECRETS_KEY, useValue: decodeSecretsKey(config.secretsKey) },
      { provide: EGRESS_OPTIONS, useValue: egress },
      { provide: PUBLIC_BASE_URL, useValue: config.publicBaseUrl.replace(/\/+$/, '') },
      { provide: HOP_TRACING_OPTIONS, useValue: config.hopTracing ?? { sampleRatio: 0 } },
      {
        provide: X402_FACILITATOR,
        useValue: { url: config.x402FacilitatorUrl } satisfies X402FacilitatorOptions,
      },
    ];
    return {
      module: RelayConfigModule,
      global: true,
      providers,
      exports: providers.map((p) => p.provide),
    };
  }
}
