import { Inject, Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';
import { HttpProblem } from '@agp/http';

import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TokenRateWindowsRepository } from './token-rate-windows.repository';

// identity.md I6: fixed windows counted in PostgreSQL, so every replica shares one count per client
// and per source address (an in-memory count would let N replicas allow N times the limit).
@Injectable()
export class TokenRateLimiter {
  constructor(
    @Inject(TENANT_AUTH_ENV) private readonly env: TenantAuthEnv,
    private readonly windows: TokenRateWindowsRepository,
  ) {}

  // Counts one request against each key, in the caller's transaction (which must commit even when
  // the credentials turn out wrong, so failed attempts count).
  async count(
    tx: Tx,
    limits: Array<{ key: string; limit: number }>,
  ): Promise<HttpProblem | undefined> {
    const windowSec = this.env.TOKEN_RATE_WINDOW_SEC;
    const nowSec = Math.floor(Date.now() / 1000);
    const windowStart = new Date((nowSec - (nowSec % windowSec)) * 1000);
    const counts = await this.windows.increment(
      tx,
      limits.map((l) => l.key),
      windowStart,
    );
    if (Math.random() < 0.01) {
      await this.windows.pruneBefore(tx, new Date(windowStart.getTime() - windowSec * 1000));
    }
    const over = counts.some(
      ({ key, count }) => count > (limits.find((l) => l.key === key)?.limit ?? Infinity),
    );
    if (!over) {
      return undefined;
    }
    const retryAfter = windowStart.getTime() / 1000 + windowSec - nowSec;
    return new HttpProblem(429, 'rate-limited', 'too many token requests; retry later', undefined, {
      'retry-after': String(Math.max(1, retryAfter)),
    });
  }
}
