import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentCompany } from '../auth/auth.decorators.js';
import type { CompanyContext } from '../auth/principal.js';
import { parseCalendarDate } from '../common/calendar-date.js';
import { AppError } from '../common/errors.js';
import { type PageRequest, pageMeta, Pagination } from '../common/pagination.js';
import { DunningPolicyDto } from './dto/dunning-policy.dto.js';
import { ApprovalDto, StartRunDto } from './dto/dunning-run.dto.js';
import { serializeIssued, serializePolicy, serializeProposal, serializeRun } from './dunning.serializer.js';
import { DunningService } from './dunning.service.js';
import { toPublicId } from '../common/ids.js';

@ApiTags('dunning')
@Controller('api/v1')
export class DunningController {
  constructor(private readonly dunning: DunningService) {}

  @Get('dunning_policy')
  async policy(@CurrentCompany() company: CompanyContext) {
    return serializePolicy(await this.dunning.policy(company));
  }

  @Put('dunning_policy')
  async replacePolicy(@CurrentCompany() company: CompanyContext, @Body() body: DunningPolicyDto) {
    return serializePolicy(await this.dunning.replacePolicy(company, body));
  }

  @Post('dunning_runs')
  @HttpCode(201)
  async startRun(@CurrentCompany() company: CompanyContext, @Body() body: StartRunDto) {
    return { dunning_run: serializeRun(await this.dunning.startRun(company, body?.date), company.timeZone) };
  }

  @Get('dunning_runs')
  async runs(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest) {
    const { runs, total } = await this.dunning.listRuns(company, page);
    return { dunning_runs: runs.map((run) => serializeRun(run, company.timeZone)), meta: pageMeta(page, total) };
  }

  @Get('dunning_runs/:id')
  async run(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return { dunning_run: serializeRun(await this.dunning.run(company, id), company.timeZone) };
  }

  @Get('dunning/proposal')
  async proposal(@CurrentCompany() company: CompanyContext, @Query('date') date?: string) {
    const parsed = date === undefined ? undefined : parseCalendarDate(date);
    if (date !== undefined && !parsed) {
      throw new AppError('request.invalid_query', 'The date is invalid', [
        { field: 'date', message: 'date must be YYYY-MM-DD or DD.MM.YYYY' },
      ]);
    }
    const { date: businessDate, outcome } = await this.dunning.proposal(company, parsed);
    return serializeProposal(businessDate, outcome);
  }

  @Post('dunning/approvals')
  @HttpCode(201)
  async approve(@CurrentCompany() company: CompanyContext, @Body() body: ApprovalDto) {
    const issued = await this.dunning.approve(company, body?.invoice_ids, body?.date);
    return {
      reminders: issued.map((r) => ({
        id: toPublicId('rem', r.reminderId),
        invoice_id: toPublicId('inv', r.invoiceId),
        ...serializeIssued(r),
      })),
    };
  }
}
