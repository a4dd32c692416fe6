// The pagination meta object of list responses (src/common/pagination.ts, spec: Pagination meta object).
import { integerProperty } from './properties.js';
import { component } from './schema.js';

export const PageMetaSchema = component(
  'PageMeta',
  {
    current_page: integerProperty({ minimum: 1, example: 2 }),
    next_page: integerProperty({ minimum: 2, nullable: true, example: 3, description: 'null on the last page' }),
    prev_page: integerProperty({ minimum: 1, nullable: true, example: 1, description: 'null on the first page' }),
    total_pages: integerProperty({ minimum: 0, example: 4, description: '0 when there are no items' }),
    per_page: integerProperty({ minimum: 1, maximum: 100, example: 30 }),
    total_count: integerProperty({ minimum: 0, example: 95, description: 'Number of items over all pages' }),
  },
  { description: 'Page-number pagination: 1-based pages, per_page 30 by default, 100 at most' },
);
