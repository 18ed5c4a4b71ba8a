import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';

import { audiencesFor } from './audiences';
import { AUTH_AUDIENCES, AuthGuard, TOKEN_VERIFIER } from './auth.guard';
import { TokenVerifier, TokenVerifierOptions } from './token-verifier';

export interface AuthModuleOptions extends TokenVerifierOptions {
  /** D8: `AUTH_AUDIENCE`; the MCP audience is derived from it. */
  apiAudience: string;
}

/** Token verification for a whole process: imported once at the root, guards every route. */
@Global()
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        { provide: TOKEN_VERIFIER, useValue: new TokenVerifier(options) },
        { provide: AUTH_AUDIENCES, useValue: audiencesFor(options.apiAudience) },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [TOKEN_VERIFIER, AUTH_AUDIENCES],
    };
  }
}
