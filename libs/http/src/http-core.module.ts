import { DynamicModule, Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { Logger } from 'pino';

import { correlationIdOf } from './correlation-id';
import { HealthController } from './health.controller';
import { ReadinessRegistry } from './readiness';

/** The process's pino logger, for code that logs outside a request (relays, consumers). */
export const ROOT_LOGGER = Symbol.for('agp:root-logger');

/** Logging with correlation ids (D13), health probes and the readiness registry: once per process. */
@Global()
@Module({})
export class HttpCoreModule {
  /**
   * @param logger the process logger
   * @param skipAccessLog paths whose request lines are not logged here (the gateway skips what it
   * proxies: the owning service logs that request with the same correlation id, D13)
   */
  static forRoot(logger: Logger, skipAccessLog: (url: string) => boolean = () => false): DynamicModule {
    return {
      module: HttpCoreModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            logger,
            genReqId: (req) => correlationIdOf(req),
            customProps: (req) => ({ correlationId: correlationIdOf(req) }),
            autoLogging: {
              ignore: (req) => (req.url ?? '').startsWith('/health/') || skipAccessLog(req.url ?? ''),
            },
            quietReqLogger: true,
          },
        }),
      ],
      controllers: [HealthController],
      providers: [ReadinessRegistry, { provide: ROOT_LOGGER, useValue: logger }],
      exports: [ReadinessRegistry, ROOT_LOGGER],
    };
  }
}
