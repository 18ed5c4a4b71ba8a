import { DynamicModule, Global, Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { Logger } from 'pino';

import { correlationIdOf } from './correlation-id';
import { HealthController } from './health.controller';
import { ReadinessRegistry } from './readiness';
import { StartupHooks } from './startup-hooks';

export const ROOT_LOGGER = Symbol.for('agp:root-logger');

/** That line is written at `info`; below it nothing reads the binding, so it is not built. */
function requestSerialisation(logger: Logger): { serializers?: { req: () => undefined } } {
  return logger.isLevelEnabled('info') ? {} : { serializers: { req: () => undefined } };
}

/** Logging with correlation ids (D13), health probes and the readiness registry: once per process. */
@Global()
@Module({})
export class HttpCoreModule {
  /**
   * @param logger the process logger
   * @param unloggedPrefixes path prefixes whose requests this process does not log at all (the
   * gateway's proxied prefixes: the owning service logs them with the same correlation id, D13)
   */
  static forRoot(logger: Logger, unloggedPrefixes: readonly string[] = []): DynamicModule {
    return {
      module: HttpCoreModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            logger,
            genReqId: (req) => correlationIdOf(req),
            // D13: renamed, not added: a custom property cost a third child logger per request.
            customAttributeKeys: { reqId: 'correlationId' },
            autoLogging: {
              ignore: (req) => (req.url ?? '').startsWith('/health/'),
            },
            quietReqLogger: true,
            ...requestSerialisation(logger),
          },
          exclude: unloggedPrefixes.map((prefix) => ({
            method: RequestMethod.ALL,
            path: `${prefix.replace(/^\/|\/$/g, '')}/*path`,
          })),
        }),
      ],
      controllers: [HealthController],
      providers: [ReadinessRegistry, StartupHooks, { provide: ROOT_LOGGER, useValue: logger }],
      exports: [ReadinessRegistry, StartupHooks, ROOT_LOGGER],
    };
  }
}
