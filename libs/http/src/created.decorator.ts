import {
  CallHandler,
  ExecutionContext,
  HttpCode,
  NestInterceptor,
  UseInterceptors,
  applyDecorators,
} from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, map } from 'rxjs';

class LocationInterceptor implements NestInterceptor {
  constructor(
    private readonly idField: string,
    private readonly basePath?: (body: Record<string, unknown>) => string,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    return next.handle().pipe(
      map((body: Record<string, unknown>) => {
        const base = this.basePath
          ? this.basePath(body)
          : request.url.split('?')[0].replace(/\/+$/, '');
        void reply.header('location', `${base}/${String(body[this.idField])}`);
        return body;
      }),
    );
  }
}

/** D31: create answers 201 with a `Location` naming the new resource. */
export function Created(
  idField = 'id',
  basePath?: (body: Record<string, unknown>) => string,
): MethodDecorator {
  return applyDecorators(
    HttpCode(201),
    UseInterceptors(new LocationInterceptor(idField, basePath)),
  );
}
