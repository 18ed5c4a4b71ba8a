import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  OnApplicationShutdown,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';

import { audiencesFor } from './audiences';
import { AUTH_AUDIENCES, AuthGuard, PRINCIPAL_CHECK, TOKEN_VERIFIER } from './auth.guard';
import { NatsRevocationOptions } from './nats-revocation.store';
import { REVOCATION_STORE, createRevocationStore, revocationCheck } from './revocation-check';
import { RevocationStore } from './revocations';
import { TokenVerifier, TokenVerifierOptions } from './token-verifier';

export interface AuthModuleOptions extends TokenVerifierOptions {
  /** D8: `AUTH_AUDIENCE`; the MCP audience is derived from it. */
  apiAudience: string;
  /** Where revocations (suspended tenants, deleted agents…) are shared (identity.md I2). */
  revocations?: Partial<NatsRevocationOptions>;
}

@Injectable()
class RevocationStoreLifecycle implements OnApplicationShutdown {
  constructor(@Inject(REVOCATION_STORE) private readonly store: RevocationStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

@Global()
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        { provide: TOKEN_VERIFIER, useValue: new TokenVerifier(options) },
        { provide: AUTH_AUDIENCES, useValue: audiencesFor(options.apiAudience) },
        { provide: REVOCATION_STORE, useFactory: () => createRevocationStore(options.revocations) },
        { provide: PRINCIPAL_CHECK, inject: [REVOCATION_STORE], useFactory: revocationCheck },
        RevocationStoreLifecycle,
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [TOKEN_VERIFIER, AUTH_AUDIENCES, REVOCATION_STORE, PRINCIPAL_CHECK],
    };
  }
}
