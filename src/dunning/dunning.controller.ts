import { Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiTags } from '@nestjs/swagger';
import { CurrentCompany } from '../auth/auth.decorators.js';
import type { CompanyContext } from '../auth/principal.js';
import { parseCalendarDate } from '../common/calendar-date.js';
import { AppError } from '../common/errors.js';
import { type PageRequest, pageMeta, Pagination } from '../common/pagination.js';
import { DunningPolicyDto } from './dto/dunning-policy.dto.js';
import { StartRunDto } from './dto/dunning-run.dto.js';
import { serializePolicy, serializeProposal, serializeRun } from './dunning.serializer.js';
import { DunningService } from './dunning.service.js';
import { ApiCreated, ApiOk } from '../openapi/responses.js';
import { serializeStartedRun, StartedRunSchema } from './approvals/approvals.serializer.js';

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

  /** 201 for a new run; 200 and repeated: true when the date had been run and nothing was left to do. */
  @Post('dunning_runs')
  @ApiCreated(StartedRunSchema, 'The run, stored')
  @ApiOk(StartedRunSchema, 'repeated: true — the date had been run and nothing was left to do; the earlier run, none stored')
  async startRun(@CurrentCompany() company: CompanyContext, @Body() body: StartRunDto, @Res({ passthrough: true }) res: Response) {
    const run = await this.dunning.startRun(company, body?.date);
    res.status(run.repeated ? 200 : 201);
    return serializeStartedRun(run, serializeRun(run, company.timeZone));
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
}
