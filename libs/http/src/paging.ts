import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
/** F23: past this, `(page - 1) * pageSize` leaves the integers PostgreSQL's OFFSET takes. */
export const MAX_PAGE = 1_000_000;

/** D31: `page` from 1, `pageSize` at most 100, default 50. Extend it with a list's own filters. */
export class PageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page: number = 1;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  pageSize: number = DEFAULT_PAGE_SIZE;
}

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export function pageOf<T>(items: T[], total: number, query: PageQueryDto): Page<T> {
  return { items, page: query.page, pageSize: query.pageSize, total };
}

export function pageOffset(query: PageQueryDto): number {
  return (query.page - 1) * query.pageSize;
}
