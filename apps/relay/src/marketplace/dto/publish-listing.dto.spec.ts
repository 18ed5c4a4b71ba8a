import 'reflect-metadata';

import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { ListingTermsDto } from './publish-listing.dto';

describe('ListingTermsDto priceUsd', () => {
  const faults = (priceUsd: unknown) =>
    validateSync(plainToInstance(ListingTermsDto, { type: 'PER_CALL', priceUsd })).map(
      (e) => e.property,
    );

  it.each([0, 0.000001, 1.5, 0.1, 1_000_000])('should accept %p', (price) => {
    expect(faults(price)).toEqual([]);
  });

  it.each([1e-7, 0.1234567, 'free', Number.NaN])(
    'should refuse %p as a field error, never throwing',
    (price) => {
      expect(faults(price)).toEqual(['priceUsd']);
    },
  );
});
