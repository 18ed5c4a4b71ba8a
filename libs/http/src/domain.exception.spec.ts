import { DomainException, domainException } from './domain.exception';

enum ShelfErrorCode {
  NotFound = 'shelf-not-found',
  Full = 'shelf-full',
}

class ShelfException extends domainException<ShelfErrorCode>({
  [ShelfErrorCode.NotFound]: 404,
  [ShelfErrorCode.Full]: 409,
}) {
  static full(): ShelfException {
    return new ShelfException(ShelfErrorCode.Full, 'no room');
  }
}

describe('domainException', () => {
  it('gives each code the status of its table', () => {
    expect(new ShelfException(ShelfErrorCode.NotFound, 'gone').status).toBe(404);
    expect(ShelfException.full().status).toBe(409);
  });

  it('is a DomainException named after the feature class, carrying code, errors and headers', () => {
    const error = new ShelfException(
      ShelfErrorCode.NotFound,
      'shelf 7 not found',
      [{ field: 'shelfId', message: 'unknown' }],
      { 'retry-after': '1' },
    );
    expect(error).toBeInstanceOf(DomainException);
    expect(error).toBeInstanceOf(ShelfException);
    expect(error.name).toBe('ShelfException');
    expect(error.code).toBe('shelf-not-found');
    expect(error.message).toBe('shelf 7 not found');
    expect(error.errors).toEqual([{ field: 'shelfId', message: 'unknown' }]);
    expect(error.headers).toEqual({ 'retry-after': '1' });
  });
});
