import 'reflect-metadata';

import { Controller, Get, Module } from '@nestjs/common';
import { Public } from '@agp/auth';
import { createHttpApp } from '@agp/http';

/** The route both scenarios GET. */
@Controller('audit/v1/bench')
class BenchController {
  @Public()
  @Get('ping')
  ping(): { ok: boolean; at: number } {
    return { ok: true, at: Date.now() };
  }
}

@Module({ controllers: [BenchController] })
class BenchServiceModule {}

/** A service on the very stack every service uses (createHttpApp), serving one small JSON GET. */
async function main(): Promise<void> {
  const app = await createHttpApp({
    service: 'bench-service',
    logLevel: 'warn',
    imports: [BenchServiceModule],
  });
  await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
}

void main();
