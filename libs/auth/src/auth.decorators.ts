import { ExecutionContext, SetMetadata, createParamDecorator } from '@nestjs/common';
import { Permission, PermissionEntity } from '@agp/contracts';
import { REQUIRED_PERMISSION_KEY } from '@agp/http';

import { Principal } from './principal';

export { REQUIRED_PERMISSION_KEY };

export interface RequiredPermission {
  entity: PermissionEntity;
  permission: Permission;
}

/** The role a route needs (`ENTITY:PERMISSION`, with D10's implications); 403 naming it otherwise. */
export const RequirePermission = (
  entity: PermissionEntity,
  permission: Permission,
): MethodDecorator & ClassDecorator =>
  SetMetadata(REQUIRED_PERMISSION_KEY, { entity, permission } satisfies RequiredPermission);

export interface RequestWithPrincipal {
  principal?: Principal;
}

export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal => {
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    if (!request.principal) {
      throw new Error('CurrentPrincipal used on a route without authentication');
    }
    return request.principal;
  },
);
