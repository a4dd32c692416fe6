// Page-number pagination with the meta object of the spec (1-based pages, per_page 30 by default, 100 at most).
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { AppError, type FieldError } from './errors.js';

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

export interface PageMeta {
  current_page: number;
  next_page: number | null;
  prev_page: number | null;
  total_pages: number;
  per_page: number;
  total_count: number;
}

function positiveInt(raw: unknown, field: string, max: number, errors: FieldError[]): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    errors.push({ field, message: `${field} must be a positive integer` });
    return undefined;
  }
  const value = Number(raw);
  if (value > max) errors.push({ field, message: `${field} must be at most ${max}` });
  return value;
}

export function parsePageRequest(query: Record<string, unknown>): PageRequest {
  const errors: FieldError[] = [];
  const page = positiveInt(query.page, 'page', 10_000_000, errors) ?? 1;
  const perPage = positiveInt(query.per_page, 'per_page', MAX_PER_PAGE, errors) ?? DEFAULT_PER_PAGE;
  if (errors.length > 0) throw new AppError('request.invalid_query', 'The pagination parameters are invalid (see errors)', errors);
  return { page, perPage, offset: (page - 1) * perPage };
}

export function pageMeta(request: PageRequest, totalCount: number): PageMeta {
  const totalPages = Math.ceil(totalCount / request.perPage);
  return {
    current_page: request.page,
    next_page: request.page < totalPages ? request.page + 1 : null,
    prev_page: request.page > 1 ? request.page - 1 : null,
    total_pages: totalPages,
    per_page: request.perPage,
    total_count: totalCount,
  };
}

/** `@Pagination() page: PageRequest` in a controller: parsed and checked `page` / `per_page`. */
export const Pagination = createParamDecorator((_data: unknown, ctx: ExecutionContext): PageRequest =>
  parsePageRequest(ctx.switchToHttp().getRequest<Request>().query as Record<string, unknown>),
);
