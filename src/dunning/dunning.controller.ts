import { Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiConsumes, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentCompany } from '../auth/auth.decorators.js';
import type { CompanyContext } from '../auth/principal.js';
import { parseCalendarDate } from '../common/calendar-date.js';
import { AppError } from '../common/errors.js';
import { type PageRequest, pageMeta, Pagination } from '../common/pagination.js';
import { DunningPolicyDto } from './dto/dunning-policy.dto.js';
import { StartRunDto } from './dto/dunning-run.dto.js';
import {
  DunningPolicyResponseSchema,
  DunningProposalSchema,
  DunningRunListSchema,
  DunningRunResponseSchema,
  serializePolicy,
  serializeProposal,
  serializeRun,
} from './dunning.serializer.js';
import { DunningService } from './dunning.service.js';
import { ApiCreated, ApiDoc, ApiFormBody, ApiOk, ApiPaged, ApiProblems } from '../openapi/responses.js';
import { serializeStartedRun, StartedRunSchema } from './approvals/approvals.serializer.js';

@ApiTags('dunning')
@ApiProblems(401, 403, 429)
@Controller('api/v1')
export class DunningController {
  constructor(private readonly dunning: DunningService) {}

  @Get('dunning_policy')
  @ApiOk(DunningPolicyResponseSchema)
  @ApiDoc(
    'Get the dunning policy',
    'The company’s three reminder levels, waiting times, fees and BGB § 288 charges; defaults where nothing is set.',
  )
  async policy(@CurrentCompany() company: CompanyContext) {
    return serializePolicy(await this.dunning.policy(company));
  }

  @Put('dunning_policy')
  @ApiConsumes('application/json')
  @ApiOk(DunningPolicyResponseSchema, 'The stored policy')
  @ApiProblems(400, 413, 415, 422)
  @ApiDoc('Replace the dunning policy', 'Replaces the whole policy (JSON); answers the stored policy.')
  async replacePolicy(@CurrentCompany() company: CompanyContext, @Body() body: DunningPolicyDto) {
    return serializePolicy(await this.dunning.replacePolicy(company, body));
  }

  /** 201 for a new run; 200 and repeated: true when the date had been run and nothing was left to do. */
  @Post('dunning_runs')
  @ApiFormBody({ optional: StartRunDto })
  @ApiCreated(StartedRunSchema, 'The run, stored')
  @ApiOk(StartedRunSchema, 'repeated: true — the date had been run and nothing was left to do; the earlier run, none stored')
  @ApiProblems(400, 413, 415, 422)
  @ApiDoc(
    'Start a dunning run',
    'Runs dunning for a business date (default: today in the company’s time zone): due invoices move on, reminders are created. A date already run with nothing left to do answers the earlier run (200, repeated: true).',
  )
  async startRun(@CurrentCompany() company: CompanyContext, @Body() body: StartRunDto, @Res({ passthrough: true }) res: Response) {
    const run = await this.dunning.startRun(company, body?.date);
    res.status(run.repeated ? 200 : 201);
    return serializeStartedRun(run, serializeRun(run, company.timeZone));
  }

  @Get('dunning_runs')
  @ApiPaged()
  @ApiOk(DunningRunListSchema)
  @ApiProblems(400)
  @ApiDoc('List dunning runs', 'The company’s dunning runs, newest first, a page at a time.')
  async runs(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest) {
    const { runs, total } = await this.dunning.listRuns(company, page);
    return { dunning_runs: runs.map((run) => serializeRun(run, company.timeZone)), meta: pageMeta(page, total) };
  }

  @Get('dunning_runs/:id')
  @ApiOk(DunningRunResponseSchema)
  @ApiProblems(404)
  @ApiDoc('Get a dunning run', 'A dunning run with its transitions, reminders created, planned fees and errors.')
  async run(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return { dunning_run: serializeRun(await this.dunning.run(company, id), company.timeZone) };
  }

  @Get('dunning/proposal')
  @ApiQuery({
    name: 'date',
    required: false,
    description: 'The business date (YYYY-MM-DD or DD.MM.YYYY); default: today in the company’s time zone',
  })
  @ApiOk(DunningProposalSchema)
  @ApiProblems(400)
  @ApiDoc(
    'Preview a dunning run',
    'What a run for the date would do, without doing it: the transitions and the reminders with their charges.',
  )
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
