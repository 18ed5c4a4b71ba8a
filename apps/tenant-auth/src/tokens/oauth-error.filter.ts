import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { FastifyReply } from 'fastify';

import { OAuthError } from './oauth.error';

@Catch(OAuthError)
export class OAuthErrorFilter implements ExceptionFilter {
  catch(exception: OAuthError, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (exception.status === 401) {
      void reply.header('www-authenticate', 'Basic realm="tenant-auth", charset="UTF-8"');
    }
    void reply
      .status(exception.status)
      .header('cache-control', 'no-store')
      .header('pragma', 'no-cache')
      .send({ error: exception.error, error_description: exception.description });
  }
}
