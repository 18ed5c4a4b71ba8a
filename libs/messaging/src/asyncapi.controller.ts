import { Controller, Get, Header, Module } from '@nestjs/common';
import { PublicRoute } from '@agp/http';

import { asyncApiDocument } from './asyncapi';

// Public like the OpenAPI document beside it (issue 18 § 4).
@PublicRoute()
@Controller()
export class AsyncApiController {
  private readonly document = JSON.stringify(asyncApiDocument());

  @Get('asyncapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  asyncApi(): string {
    return this.document;
  }
}

@Module({ controllers: [AsyncApiController] })
export class AsyncApiModule {}
