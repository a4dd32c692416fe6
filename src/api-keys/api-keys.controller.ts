// /api/v1/api_keys: the push credentials of the company, managed with the REST API token. Creation is
// not idempotent-replayable on purpose: a replay would have to store the secret.
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentCompany } from '../auth/auth.decorators.js';
import type { CompanyContext } from '../auth/principal.js';
import { type PageRequest, pageMeta, Pagination } from '../common/pagination.js';
import { ApiCreated, ApiDoc, ApiFormBody, ApiNoContent, ApiOk, ApiPaged, ApiProblems } from '../openapi/responses.js';
import {
  ApiKeyListSchema,
  ApiKeyResponseSchema,
  NewApiKeyResponseSchema,
  RotatedApiKeyResponseSchema,
  serializeApiKey,
} from './api-key.serializer.js';
import { ApiKeysService, type ApiKeyView } from './api-keys.service.js';
import { CreateApiKeyDto } from './dto/api-key.dto.js';

@ApiTags('api keys')
@ApiProblems(401, 403, 429)
@Controller('api/v1/api_keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @ApiFormBody()
  @ApiCreated(NewApiKeyResponseSchema, 'The key, with its secret `key` (shown this once)')
  @ApiProblems(400, 413, 415, 422)
  @ApiDoc('Create an API key', 'Creates an API key for the push API (/v2); the secret `key` is in this answer only.')
  @HttpCode(201)
  async create(@CurrentCompany() company: CompanyContext, @Body() body: CreateApiKeyDto) {
    const created = await this.keys.create(company, body.name);
    return { api_key: { ...wire(company, created), key: created.secret } };
  }

  @Get()
  @ApiPaged()
  @ApiOk(ApiKeyListSchema)
  @ApiProblems(400)
  @ApiDoc('List API keys', 'The company’s API keys with their status, a page at a time; never their secrets.')
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest) {
    const { items, total } = await this.keys.list(company, page);
    return { api_keys: items.map((view) => wire(company, view)), meta: pageMeta(page, total) };
  }

  @Get(':id')
  @ApiOk(ApiKeyResponseSchema)
  @ApiProblems(404)
  @ApiDoc('Get an API key', 'An API key with its status and expiry; never its secret.')
  async get(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return { api_key: wire(company, await this.keys.get(company, id)) };
  }

  @Delete(':id')
  @ApiNoContent('Revoked')
  @ApiProblems(404)
  @ApiDoc('Revoke an API key', 'The key stops working at once.')
  @HttpCode(204)
  async revoke(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    await this.keys.revoke(company, id);
  }

  @Post(':id/rotate')
  @ApiCreated(RotatedApiKeyResponseSchema, 'The new key with its secret, and the previous one in its grace period')
  @ApiProblems(404, 409)
  @ApiDoc(
    'Rotate an API key',
    'Creates the key’s successor (its secret in this answer only); the old key keeps working for the grace period.',
  )
  @HttpCode(201)
  async rotate(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    const { current, previous } = await this.keys.rotate(company, id);
    return { api_key: { ...wire(company, current), key: current.secret }, previous_api_key: wire(company, previous) };
  }
}

function wire(company: CompanyContext, view: ApiKeyView) {
  return serializeApiKey(view.key, view.status, company.timeZone);
}
