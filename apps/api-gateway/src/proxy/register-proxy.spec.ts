import { SMALL_BODY_BYTES, isSmallBody } from './register-proxy';

describe(isSmallBody.name, () => {
  it('should read a body whole only when its declared length is small and it is not chunked', () => {
    expect(isSmallBody({ 'content-length': '512' })).toBe(true);
    expect(isSmallBody({ 'content-length': String(SMALL_BODY_BYTES) })).toBe(true);

    expect(isSmallBody({ 'content-length': String(SMALL_BODY_BYTES + 1) })).toBe(false);
    expect(isSmallBody({ 'content-length': '0' })).toBe(false);
    expect(isSmallBody({ 'content-length': '12abc' })).toBe(false);
    expect(isSmallBody({})).toBe(false);
    expect(isSmallBody({ 'transfer-encoding': 'chunked', 'content-length': '512' })).toBe(false);
  });
});
