import {
  DEFAULT_DISCLOSURE_TEXT,
  aiDisclosureHeader,
  disclosureInputOf,
  disclosureTermsOf,
  syntheticMarkingOf,
} from './disclosure-terms';

describe('disclosure terms (D45, D57, traffic.md T70–T73, channels.md CH14)', () => {
  const tenant = {
    aiDisclosure: 'FIRST_MESSAGE' as const,
    aiDisclosureText: null,
    contentMarking: 'ON' as const,
  };

  it('should take the tenant’s settings and the platform’s words when the channel overrides nothing', () => {
    const sut = disclosureTermsOf(tenant, { url: 'https://hooks.example' });

    expect(sut).toEqual({ mode: 'FIRST_MESSAGE', text: DEFAULT_DISCLOSURE_TEXT, isMarking: true });
  });

  it('should let a channel override each setting on its own', () => {
    const sut = disclosureTermsOf(
      { ...tenant, aiDisclosureText: 'Tenant words' },
      { aiDisclosure: 'EVERY_MESSAGE', contentMarking: 'OFF' },
    );

    expect(sut).toEqual({ mode: 'EVERY_MESSAGE', text: 'Tenant words', isMarking: false });
  });

  it('should disclose on the first message only under FIRST_MESSAGE, on each under EVERY_MESSAGE, never when OFF', () => {
    const terms = disclosureTermsOf(tenant);

    expect(disclosureInputOf(terms, false).willBeMade).toBe(true);
    expect(disclosureInputOf(terms, true).willBeMade).toBe(false);
    expect(disclosureInputOf({ ...terms, mode: 'EVERY_MESSAGE' }, true).willBeMade).toBe(true);
    expect(disclosureInputOf({ ...terms, mode: 'OFF' }, false)).toEqual({
      mode: 'OFF',
      madeBefore: false,
      willBeMade: false,
      contentMarking: true,
    });
  });

  it('should write the marking as an AI-Disclosure structured-field dictionary', () => {
    const marking = syntheticMarkingOf({ id: 'a1', name: 'Helper' }, new Date(1_765_360_000_000));

    expect(aiDisclosureHeader(marking)).toBe('mode=ai-originated, date=@1765360000');
    expect(marking.generator).toEqual({ type: 'AGENT', id: 'a1', name: 'Helper' });
  });
});
