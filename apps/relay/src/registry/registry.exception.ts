import { domainException } from '@agp/http';

export enum RegistryErrorCode {
  NotFound = 'registry-entry-not-found',
  NameTaken = 'registry-name-taken',
  InvalidReference = 'registry-invalid-reference',
  InUse = 'registry-entry-in-use',
}

export class RegistryException extends domainException<RegistryErrorCode>({
  [RegistryErrorCode.NotFound]: 404,
  [RegistryErrorCode.NameTaken]: 409,
  [RegistryErrorCode.InvalidReference]: 400,
  [RegistryErrorCode.InUse]: 409,
}) {}
