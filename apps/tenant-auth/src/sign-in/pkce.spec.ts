import { isPkceVerifierRight } from './pkce';

describe(isPkceVerifierRight.name, () => {
  // RFC 7636 Appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('should accept the verifier of RFC 7636 Appendix B', () => {
    expect(isPkceVerifierRight(verifier, challenge)).toBe(true);
  });

  it('should refuse another verifier, a short one, or the challenge itself', () => {
    expect(isPkceVerifierRight(`${verifier.slice(0, -1)}x`, challenge)).toBe(false);
    expect(isPkceVerifierRight('short', challenge)).toBe(false);
    expect(isPkceVerifierRight(challenge, challenge)).toBe(false);
  });
});
