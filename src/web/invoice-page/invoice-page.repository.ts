// What the invoice page reads beyond the API's services: the e-mail addresses of the company's users who
// acted on the invoice (events name a user by id only).
import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';

const USER_EMAILS = statement<{ id: string; email: string }>(
  'web.invoice_event_users',
  'SELECT id::text AS id, email FROM users WHERE company_id = $1 AND id::text = ANY($2::text[])',
);

@Injectable()
export class InvoicePageRepository {
  constructor(private readonly sql: Sql) {}

  async userEmails(companyId: string, userIds: string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.sql.rows(USER_EMAILS, [companyId, [...new Set(userIds)]]);
    return new Map(rows.map((row) => [row.id, row.email]));
  }
}
