// The pagination meta object of list responses (src/common/pagination.ts, spec: Pagination meta object).
import { ApiSchema } from '@nestjs/swagger';
import { IntegerProperty } from './properties.js';

@ApiSchema({ name: 'PageMeta', description: 'Page-number pagination: 1-based pages, per_page 30 by default, 100 at most' })
export class PageMetaSchema {
  @IntegerProperty({ minimum: 1, example: 2 }) readonly current_page!: number;
  @IntegerProperty({ minimum: 2, nullable: true, example: 3, description: 'null on the last page' }) readonly next_page!: number | null;
  @IntegerProperty({ minimum: 1, nullable: true, example: 1, description: 'null on the first page' }) readonly prev_page!: number | null;
  @IntegerProperty({ minimum: 0, example: 4, description: '0 when there are no items' }) readonly total_pages!: number;
  @IntegerProperty({ minimum: 1, maximum: 100, example: 30 }) readonly per_page!: number;
  @IntegerProperty({ minimum: 0, example: 95, description: 'Number of items over all pages' }) readonly total_count!: number;
}
