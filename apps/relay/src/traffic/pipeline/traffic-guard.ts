import { Injectable } from '@nestjs/common';

import { Admission } from './admission';
import { RateLimitKey, RateLimitRefusal, RateLimiter } from './rate-limiter';
import { EngagedKillSwitch, TrafficDirectory } from './traffic-directory';

/** What stops a hop before any policy runs: an engaged kill switch (D35), a rate limit (D36). */
@Injectable()
export class TrafficGuard {
  constructor(
    private readonly directory: TrafficDirectory,
    private readonly limiter: RateLimiter,
  ) {}

  async killSwitchFor(subject: Admission): Promise<EngagedKillSwitch | undefined> {
    const engaged = await this.directory.engagedKillSwitches(subject.tenantId);
    if (engaged.length === 0) {
      return undefined;
    }
    return engaged.find((s) =>
      subject.targets.some((t) => t.scope === s.scope && t.id === s.targetId),
    );
  }

  /** Counts `hops` messages against the tenant's limits (D36); the refusal when one is exceeded. */
  async rateLimitFor(subject: Admission, hops: number): Promise<RateLimitRefusal | undefined> {
    const settings = await this.directory.settings(subject.tenantId);
    const keys: RateLimitKey[] = [];
    if (settings.tenantPerMinute !== null) {
      keys.push({ key: 'tenant', perMinute: settings.tenantPerMinute });
    }
    if (settings.agentPerMinute !== null) {
      keys.push({ key: `agent:${subject.agentId}`, perMinute: settings.agentPerMinute });
    }
    if (settings.subscriptionPerMinute !== null && subject.subscriptionId) {
      keys.push({
        key: `subscription:${subject.subscriptionId}`,
        perMinute: settings.subscriptionPerMinute,
      });
    }
    return this.limiter.consume(subject.tenantId, keys, hops);
  }
}

/** D35: how every refusal names an engaged switch. */
export function killSwitchReason(engaged: EngagedKillSwitch): string {
  return `kill switch ${engaged.id} (${engaged.scope}): ${engaged.reason}`;
}
