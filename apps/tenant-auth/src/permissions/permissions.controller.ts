import { Controller, Get } from '@nestjs/common';
import { CurrentPrincipal, PermissionEntry, Principal, expandPermissions } from '@agp/auth';

@Controller('tenant-auth/v1/permissions')
export class PermissionsController {
  /** Operation 2 (D10): any valid token; the caller's own entries, expanded, sorted, a plain array. */
  @Get()
  list(@CurrentPrincipal() principal: Principal): PermissionEntry[] {
    return expandPermissions(principal.permissions);
  }
}
