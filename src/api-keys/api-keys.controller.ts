// /api/v1/api_keys: the push credentials of the company, managed with the REST API token. Creation is
// not idempotent-replayable on purpose: a replay would have to store the secret.
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentCompany } from '../auth/auth.decorators.js';
import type { CompanyContext } from '../auth/principal.js';
import { type PageRequest, pageMeta, Pagination } from '../common/pagination.js';
import { serializeApiKey } from './api-key.serializer.js';
import { ApiKeysService, type ApiKeyView } from './api-keys.service.js';
import { CreateApiKeyDto } from './dto/api-key.dto.js';

@ApiTags('api keys')
@Controller('api/v1/api_keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @HttpCode(201)
  async create(@CurrentCompany() company: CompanyContext, @Body() body: CreateApiKeyDto) {
    const created = await this.keys.create(company, body.name);
    return { api_key: { ...wire(company, created), key: created.secret } };
  }

  @Get()
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest) {
    const { items, total } = await this.keys.list(company, page);
    return { api_keys: items.map((view) => wire(company, view)), meta: pageMeta(page, total) };
  }

  @Get(':id')
  async get(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return { api_key: wire(company, await this.keys.get(company, id)) };
  }

  @Delete(':id')
  @HttpCode(204)
  async revoke(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    await this.keys.revoke(company, id);
  }

  @Post(':id/rotate')
  @HttpCode(201)
  async rotate(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    const { current, previous } = await this.keys.rotate(company, id);
    return { api_key: { ...wire(company, current), key: current.secret }, previous_api_key: wire(company, previous) };
  }
}

function wire(company: CompanyContext, view: ApiKeyView) {
  return serializeApiKey(view.key, view.status, company.timeZone);
}
