import { uuidParam } from './uuid-param';

describe(uuidParam.name, () => {
  const metadata = { type: 'param', data: 'gatewayId' } as const;

  it('should answer an id spelled in capitals as PostgreSQL prints it', async () => {
    const id = 'A3BB189E-8BF9-3888-9912-ACE4E6543002';

    await expect(uuidParam('gatewayId').transform(id, metadata)).resolves.toBe(id.toLowerCase());
  });

  it('should refuse what is not a UUID with a validation problem naming the field', async () => {
    await expect(uuidParam('gatewayId').transform('not-a-uuid', metadata)).rejects.toMatchObject({
      code: 'validation-error',
      errors: [{ field: 'gatewayId' }],
    });
  });
});
