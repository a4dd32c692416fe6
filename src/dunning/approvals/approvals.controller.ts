import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, CurrentCompany } from '../../auth/auth.decorators.js';
import type { CompanyContext } from '../../auth/principal.js';
import { parseCalendarDate } from '../../common/calendar-date.js';
import { AppError, type FieldError } from '../../common/errors.js';
import { parsePublicId } from '../../common/ids.js';
import { type PageRequest, pageMeta, Pagination } from '../../common/pagination.js';
import type { Actor } from '../../invoices/invoices.repository.js';
import { ApiCreated, ApiFormBody, ApiOk, ApiPaged, ApiProblems } from '../../openapi/responses.js';
import { ApproveDto, RejectDto } from './approval.dto.js';
import {
  ApprovalResultSchema,
  RejectionResultSchema,
  serializeApproval,
  serializeRejection,
  serializeWaiting,
  WaitingReminderListSchema,
} from './approvals.serializer.js';
import type { ApprovalFilters } from './approvals.repository.js';
import { ApprovalsService } from './approvals.service.js';

const NO_SUCH_CUSTOMER = '00000000-0000-0000-0000-000000000000';

function parseFilters(query: Record<string, unknown>): { filters: ApprovalFilters; date?: string } {
  const errors: FieldError[] = [];
  const filters: ApprovalFilters = {};
  if (query.customer_id !== undefined) {
    // A well-formed id of no customer of this company simply matches nothing.
    const id = typeof query.customer_id === 'string' ? parsePublicId('cus', query.customer_id) : undefined;
    filters.customerId = id ?? NO_SUCH_CUSTOMER;
    if (!id) errors.push({ field: 'customer_id', message: 'customer_id must be a customer id (cus-…)' });
  }
  if (query.reminder_stage !== undefined) {
    if (['1', '2', '3'].includes(query.reminder_stage as string)) filters.stage = Number(query.reminder_stage) as 1 | 2 | 3;
    else errors.push({ field: 'reminder_stage', message: 'reminder_stage must be 1, 2 or 3' });
  }
  const date = query.date === undefined ? undefined : parseCalendarDate(query.date);
  if (query.date !== undefined && !date) errors.push({ field: 'date', message: 'date must be YYYY-MM-DD or DD.MM.YYYY' });
  if (errors.length) throw new AppError('request.invalid_query', 'Some approval filters are invalid (see errors)', errors);
  return { filters, date };
}

@ApiTags('dunning')
@Controller('api/v1/dunning/approvals')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Get()
  @ApiOperation({
    summary: 'List the reminders waiting for approval',
    description:
      'The reminders dunning runs proposed under a policy with auto_ship false, with the charges each would carry and the run that proposed it, oldest due date first.',
  })
  @ApiPaged()
  @ApiQuery({
    name: 'customer_id',
    required: false,
    description: 'Only this customer’s (cus-…)',
    schema: { type: 'string', pattern: '^cus-' },
  })
  @ApiQuery({ name: 'reminder_stage', required: false, schema: { type: 'integer', enum: [1, 2, 3] } })
  @ApiQuery({
    name: 'date',
    required: false,
    description: 'development and test only: today’s business date',
    schema: { type: 'string', format: 'date' },
  })
  @ApiOk(WaitingReminderListSchema)
  @ApiProblems(400, 422)
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest, @Query() query: Record<string, unknown>) {
    const { filters, date } = parseFilters(query);
    const { items, total } = await this.approvals.list(company, filters, page, date);
    return serializeWaiting(items, pageMeta(page, total));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Approve waiting reminders',
    description:
      'Creates the reminders of the invoices named in ids[] (or, with all: true and expected_count, of all that wait), dated with the business date of the run that proposed them, and sends them. A reminder that no longer passes the guards is not created: its invoice steps back (stepped_back). Nothing named: 422; an unknown id: 404; an invoice not waiting, a changed count or a proposal older than proposal_valid_days: 409. A refused request changes nothing.',
  })
  @ApiFormBody()
  @ApiCreated(ApprovalResultSchema, 'The reminders created, and those stepped back instead')
  @ApiProblems(404, 409, 422)
  async approve(@CurrentCompany() company: CompanyContext, @CurrentActor() actor: Actor, @Body() body: ApproveDto) {
    const { approved, steppedBack } = await this.approvals.approve(company, body ?? {}, actor);
    return serializeApproval(approved, steppedBack);
  }

  @Post('reject')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reject waiting reminders',
    description:
      'The reminders of the invoices named in ids[] are not created; the invoices step back to their status before the proposal (with the reason in their events). The next run proposes them again while they still qualify: a dunning block keeps one back.',
  })
  @ApiFormBody()
  @ApiOk(RejectionResultSchema, 'The rejected reminders')
  @ApiProblems(404, 409, 422)
  async reject(@CurrentCompany() company: CompanyContext, @CurrentActor() actor: Actor, @Body() body: RejectDto) {
    return serializeRejection(await this.approvals.reject(company, body ?? {}, actor));
  }
}
