import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';

import { PublicRoute } from './public-route';
import { ReadinessRegistry, ReadinessState } from './readiness';

/** What `/health/ready` answers, 200 or 503 alike. */
export interface Readiness {
  status: ReadinessState;
  /** Each dependency by name (`database`, `events`). */
  checks: Record<string, ReadinessState>;
}

@PublicRoute()
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: ReadinessRegistry) {}

  @Get('live')
  @HttpCode(200)
  live(): { status: 'up' } {
    return { status: 'up' };
  }

  @Get('ready')
  @ApiResponse({ status: 200, description: 'Every dependency answers.' })
  @ApiResponse({ status: 503, description: 'A dependency does not answer.' })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<Readiness> {
    const checks = await this.readiness.run();
    const isReady = Object.values(checks).every((state) => state === 'up');
    void reply.status(isReady ? 200 : 503);
    return { status: isReady ? 'up' : 'down', checks };
  }
}
