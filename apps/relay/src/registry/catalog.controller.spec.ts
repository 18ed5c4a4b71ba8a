import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { PageQueryDto } from '@agp/http';

import { catalogController } from './catalog.controller';
import { ListCatalogQueryDto } from './list-catalog-query.dto';

class CreateThingDto {
  name: string;
}
class UpdateThingDto {
  name?: string;
}
class ListThingsQueryDto extends PageQueryDto {}

const THINGS = Symbol('things');
const things = {
  name: 'ThingsController',
  path: 'relay/v1/things',
  idParam: 'thingId',
  permission: 'CHANNELS',
  operations: THINGS,
  createDto: CreateThingDto,
  updateDto: UpdateThingDto,
} as const;
const routeOf = (proto: object, name: string): unknown =>
  Reflect.getMetadata(PATH_METADATA, (proto as Record<string, object>)[name]);

describe(catalogController.name, () => {
  it('should serve the five routes under the path when every route is asked for', () => {
    const sut = catalogController(things);

    expect(sut.name).toBe('ThingsController');
    expect(Reflect.getMetadata(PATH_METADATA, sut)).toBe('relay/v1/things');
    expect(
      ['create', 'list', 'get', 'update', 'remove'].map((m) => routeOf(sut.prototype, m)),
    ).toEqual(['/', '/', ':thingId', ':thingId', ':thingId']);
  });

  it('should give ValidationPipe the DTO classes when it reads the parameter types', () => {
    const sut = catalogController(things);
    const types = (name: string): unknown[] =>
      Reflect.getMetadata('design:paramtypes', sut.prototype, name) as unknown[];

    expect(types('create')[1]).toBe(CreateThingDto);
    expect(types('update')[2]).toBe(UpdateThingDto);
    expect(types('list')[1]).toBe(ListCatalogQueryDto);
  });

  it('should leave a route out when the resource does not serve it', () => {
    const sut = catalogController({
      ...things,
      name: 'ReadOnlyThingsController',
      permission: 'REGISTRY',
      createDto: undefined,
      listQuery: ListThingsQueryDto,
      routes: ['list', 'get', 'update'],
    });

    expect(routeOf(sut.prototype, 'create')).toBeUndefined();
    expect(routeOf(sut.prototype, 'remove')).toBeUndefined();
    expect(Reflect.getMetadata(METHOD_METADATA, (sut.prototype as { get: object }).get)).toBe(0);
    expect((Reflect.getMetadata('design:paramtypes', sut.prototype, 'list') as unknown[])[1]).toBe(
      ListThingsQueryDto,
    );
  });
});
