import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';

import { PublicRoute } from './public-route';
import { ReadinessRegistry } from './readiness';

@PublicRoute()
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: ReadinessRegistry) {}

  @Get('live')
  @HttpCode(200)
  live(): { status: 'up' } {
    return { status: 'up' };
  }

  /** 200 when every dependency answers, 503 (still JSON, for probes and people) when one does not. */
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<object> {
    const checks = await this.readiness.run();
    const isReady = Object.values(checks).every((state) => state === 'up');
    void reply.status(isReady ? 200 : 503);
    return { status: isReady ? 'up' : 'down', checks };
  }
}
