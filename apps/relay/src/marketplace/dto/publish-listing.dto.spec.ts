import 'reflect-metadata';

import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { ListingTermsDto, chargeFaults } from './publish-listing.dto';

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

describe('ListingTermsDto payTo and network (payments.md PY20)', () => {
  const PAYEE = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';
  const faults = (terms: Record<string, unknown>) =>
    validateSync(plainToInstance(ListingTermsDto, terms))
      .map((e) => e.property)
      .sort();

  it('should accept a PER_CALL price paid to an EVM address on a CAIP-2 network', () => {
    expect(
      faults({ type: 'PER_CALL', priceUsd: 0.02, payTo: PAYEE, network: 'eip155:8453' }),
    ).toEqual([]);
  });

  it('should accept a PER_CALL price without either, as a published fact', () => {
    expect(faults({ type: 'PER_CALL', priceUsd: 0.02 })).toEqual([]);
  });

  it.each([
    [{ type: 'PER_CALL', priceUsd: 1, payTo: PAYEE }, ['network']],
    [{ type: 'PER_CALL', priceUsd: 1, network: 'eip155:8453' }, ['payTo']],
    [
      { type: 'PER_CALL', priceUsd: 1, payTo: '0x1234', network: 'solana:mainnet' },
      ['network', 'payTo'],
    ],
    [{ type: 'FREE', payTo: PAYEE, network: 'eip155:8453' }, ['network', 'payTo']],
  ])('should name every bad field of %p', (terms, fields) => {
    expect(faults(terms)).toEqual(fields);
  });

  it.each(['eip155:999999', 'eip155:10'])(
    'should refuse %p, a network the x402 exact scheme cannot price (MK38)',
    (network) => {
      const errors = validateSync(
        plainToInstance(ListingTermsDto, { type: 'PER_CALL', priceUsd: 1, payTo: PAYEE, network }),
      );
      expect(errors.map((e) => e.property)).toEqual(['network']);
      expect(Object.values(errors[0].constraints ?? {}).join(' ')).toContain('eip155:8453');
    },
  );
});

describe('chargeFaults (payments.md PY23)', () => {
  const terms = { type: 'PER_CALL', payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C' };

  it('should refuse where an MCP_SERVER listing is paid, and let an AGENT listing say it', () => {
    expect(chargeFaults('MCP_SERVER', terms).map((f) => f.field)).toEqual(['terms.payTo']);
    expect(chargeFaults('MCP_SERVER', { network: 'eip155:8453' })).toHaveLength(1);
    expect(chargeFaults('MCP_SERVER', {})).toEqual([]);
    expect(chargeFaults('AGENT', terms)).toEqual([]);
  });
});
