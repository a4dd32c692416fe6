import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentCompany } from '../../auth/auth.decorators.js';
import type { CompanyContext } from '../../auth/principal.js';
import { type PageRequest, pageMeta, Pagination } from '../../common/pagination.js';
import { Idempotent } from '../../idempotency/idempotency.interceptor.js';
import { ConnectionTestResponseSchema, ErpConnectionListSchema, ErpConnectionResponseSchema } from './erp-connection.serializer.js';
import { PullRunListSchema, PullRunResponseSchema } from '../run/pull-run.serializer.js';
import { ApiCreated, ApiDoc, ApiNoContent, ApiOk, ApiPaged, ApiProblems } from '../../openapi/responses.js';
import { schemaRef } from '../../openapi/schema.js';
import { CreateErpConnectionDto, StartPullDto, UpdateErpConnectionDto } from './dto/erp-connection.dto.js';
import { serializeErpConnection } from './erp-connection.serializer.js';
import { ErpConnectionsService } from './erp-connections.service.js';
import { ErpPullService } from '../run/erp-pull.service.js';
import { serializePullRun } from '../run/pull-run.serializer.js';

@ApiTags('erp connections')
@ApiProblems(401, 403, 429)
@Controller('api/v1/erp_connections')
export class ErpConnectionsController {
  constructor(
    private readonly connections: ErpConnectionsService,
    private readonly pulls: ErpPullService,
  ) {}

  @Post()
  @ApiDoc(
    'Create an ERP connection',
    'Registers an SAP OData connection the service pulls customers and invoices from; `name` is required.',
  )
  @HttpCode(201)
  @Idempotent()
  @ApiConsumes('application/json')
  @ApiBody({ type: CreateErpConnectionDto })
  @ApiCreated(ErpConnectionResponseSchema)
  @ApiProblems(400, 409, 413, 415, 422)
  async create(@CurrentCompany() company: CompanyContext, @Body() body: CreateErpConnectionDto) {
    return { erp_connection: serializeErpConnection(await this.connections.create(company, body), company.timeZone) };
  }

  @Get()
  @ApiDoc('List ERP connections', 'The company’s ERP connections, a page at a time; secrets are never shown.')
  @ApiPaged()
  @ApiOk(ErpConnectionListSchema)
  @ApiProblems(400)
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest) {
    const { connections, total } = await this.connections.list(company, page);
    return { erp_connections: connections.map((c) => serializeErpConnection(c, company.timeZone)), meta: pageMeta(page, total) };
  }

  @Get(':id')
  @ApiDoc('Get an ERP connection', 'An ERP connection with its schedule and last pull; secrets are never shown.')
  @ApiOk(ErpConnectionResponseSchema)
  @ApiProblems(404)
  async get(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return { erp_connection: serializeErpConnection(await this.connections.get(company, id), company.timeZone) };
  }

  @Patch(':id')
  @ApiDoc('Update an ERP connection', 'Changes the settings sent; the others keep their values.')
  @ApiConsumes('application/json')
  @ApiBody({ type: UpdateErpConnectionDto })
  @ApiOk(ErpConnectionResponseSchema, 'The connection with the new settings')
  @ApiProblems(400, 404, 413, 415, 422)
  async update(@CurrentCompany() company: CompanyContext, @Param('id') id: string, @Body() body: UpdateErpConnectionDto) {
    return { erp_connection: serializeErpConnection(await this.connections.update(company, id, body), company.timeZone) };
  }

  @Delete(':id')
  @ApiDoc('Delete an ERP connection', 'Deletes the connection and its pull runs; pulled customers and invoices stay.')
  @HttpCode(204)
  @ApiNoContent('The connection and its pull runs are deleted; pulled customers and invoices stay')
  @ApiProblems(404)
  async remove(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    await this.connections.remove(company, id);
  }

  /** Checks DNS, address, token, and each service; 200 with the outcome of every check. */
  @Post(':id/test')
  @ApiDoc(
    'Test an ERP connection',
    'Runs the connection checks (address, authentication, the OData services) and reports each one’s outcome.',
  )
  @HttpCode(200)
  @ApiOk(ConnectionTestResponseSchema, 'Every check with its outcome; failed_check names the first that failed')
  @ApiProblems(404)
  async test(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return { connection_test: await this.connections.test(company, id) };
  }

  @Post(':id/pulls')
  @ApiDoc('Start a pull', 'Queues a pull of customers and invoices from the ERP; its progress is at GET …/pulls/<id>.')
  @HttpCode(202)
  @Idempotent()
  @ApiConsumes('application/json')
  @ApiBody({ type: StartPullDto, required: false })
  @ApiResponse({
    status: 202,
    schema: schemaRef(PullRunResponseSchema),
    description: 'The run is queued; GET …/pulls/<id> shows its progress',
  })
  @ApiProblems(400, 404, 409, 413, 415, 422)
  async startPull(@CurrentCompany() company: CompanyContext, @Param('id') id: string, @Body() body: StartPullDto) {
    return { pull_run: serializePullRun(await this.pulls.startNow(company, id, body.mode ?? 'incremental'), company.timeZone) };
  }

  @Get(':id/pulls')
  @ApiDoc('List a connection’s pulls', 'The pull runs of the connection, newest first, a page at a time.')
  @ApiPaged()
  @ApiOk(PullRunListSchema)
  @ApiProblems(400, 404)
  async listPulls(@CurrentCompany() company: CompanyContext, @Param('id') id: string, @Pagination() page: PageRequest) {
    const { runs, total } = await this.pulls.list(company, id, page);
    return { pull_runs: runs.map((r) => serializePullRun(r, company.timeZone)), meta: pageMeta(page, total) };
  }

  @Get(':id/pulls/:runId')
  @ApiDoc('Get a pull', 'A pull run with its status, counts and errors.')
  @ApiOk(PullRunResponseSchema)
  @ApiProblems(404)
  async getPull(@CurrentCompany() company: CompanyContext, @Param('id') id: string, @Param('runId') runId: string) {
    return { pull_run: serializePullRun(await this.pulls.get(company, id, runId), company.timeZone) };
  }
}
