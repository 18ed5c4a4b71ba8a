import { PermissionEntryDto, entriesOf } from '../../common/permission-entry.dto';
import { Client, ClientStatus } from '../client.types';

/** An agent or service account; `clientId` is what the token endpoint takes (D7). Never the secret. */
export class ClientResponseDto {
  id: string;
  clientId: string;
  tenantId: string;
  name: string;
  description: string;
  status: ClientStatus;
  permissions: PermissionEntryDto[];
  secretRotatedAt: string;
  createdAt: string;
  updatedAt: string;

  static of(client: Client): ClientResponseDto {
    return {
      id: client.id,
      clientId: client.id,
      tenantId: client.tenantId,
      name: client.name,
      description: client.description,
      status: client.status,
      permissions: entriesOf(client.permissions),
      secretRotatedAt: client.secretRotatedAt.toISOString(),
      createdAt: client.createdAt.toISOString(),
      updatedAt: client.updatedAt.toISOString(),
    };
  }
}

/** D30: creation and rotation answer the secret, once. */
export class ClientWithSecretResponseDto extends ClientResponseDto {
  clientSecret: string;
}
