// The reads that API clients and ERP integrations poll most, answered by the hot-read dispatch
// (src/http/hot-reads) without Nest's router: each entry calls the controller method Nest would call, with
// the parameters Nest's decorators would give it (@Pagination(), @Query(), @Param('id') as sent), so what
// a route answers is written once, in its controller. A composition root: it names feature controllers.
import type { INestApplication } from '@nestjs/common';
import type { HotRoute } from './http/hot-reads/hot-reads.js';
import { parsePageRequest } from './common/pagination.js';
import { CustomersController } from './customers/customers.controller.js';
import { InvoicesController } from './invoices/invoices.controller.js';

export function hotRoutes(app: INestApplication): HotRoute[] {
  const customers = app.get(CustomersController, { strict: false });
  const invoices = app.get(InvoicesController, { strict: false });
  return [
    { path: '/api/v1/customers', member: false, read: (company, req) => customers.list(company, parsePageRequest(req.query)) },
    { path: '/api/v1/customers', member: true, read: (company, _req, id) => customers.get(company, id) },
    { path: '/api/v1/invoices', member: false, read: (company, req) => invoices.list(company, parsePageRequest(req.query), req.query) },
    { path: '/api/v1/invoices', member: true, read: (company, _req, id) => invoices.get(company, id) },
  ];
}
