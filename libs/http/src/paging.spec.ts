import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { MAX_PAGE, PageQueryDto, pageOffset } from './paging';

describe(PageQueryDto.name, () => {
  const errorsOf = (query: Record<string, string>): string[] =>
    validateSync(plainToInstance(PageQueryDto, query)).map((e) => e.property);

  it('should refuse a page whose offset PostgreSQL cannot take (found by the fuzz suite: a 500)', () => {
    expect(errorsOf({ page: '99999999999999999999999' })).toEqual(['page']);
    expect(errorsOf({ page: String(MAX_PAGE + 1) })).toEqual(['page']);
  });

  it('should accept the last page allowed, with an offset that is a safe integer', () => {
    const query = plainToInstance(PageQueryDto, { page: String(MAX_PAGE), pageSize: '100' });

    expect(errorsOf({ page: String(MAX_PAGE), pageSize: '100' })).toEqual([]);
    expect(Number.isSafeInteger(pageOffset(query))).toBe(true);
  });
});
