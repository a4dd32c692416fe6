// /api/v1/oauth_applications: OAuth clients of the company, managed with the REST API token.
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentCompany } from '../auth/auth.decorators.js';
import type { CompanyContext } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { type PageRequest, pageMeta, Pagination } from '../common/pagination.js';
import { CreateOAuthApplicationDto } from './dto/oauth-application.dto.js';
import { ApiCreated, ApiDoc, ApiFormBody, ApiNoContent, ApiOk, ApiPaged, ApiProblems } from '../openapi/responses.js';
import {
  NewOAuthApplicationResponseSchema,
  OAuthApplicationListSchema,
  OAuthApplicationResponseSchema,
  serializeOAuthApplication,
} from './oauth-application.serializer.js';
import { OAuthApplicationsService } from './oauth-applications.service.js';
import type { OAuthApplication } from './oauth-applications.repository.js';

@ApiTags('oauth applications')
@ApiProblems(401, 403, 429)
@Controller('api/v1/oauth_applications')
export class OAuthApplicationsController {
  constructor(
    private readonly applications: OAuthApplicationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiFormBody()
  @ApiCreated(NewOAuthApplicationResponseSchema, 'The application, with its `client_secret` (shown this once)')
  @ApiProblems(400, 413, 415, 422)
  @ApiDoc(
    'Register an OAuth application',
    'Registers an OAuth 2.0 client (authorization code flow) for the push API; `client_secret` is in this answer only.',
  )
  @HttpCode(201)
  async create(@CurrentCompany() company: CompanyContext, @Body() body: CreateOAuthApplicationDto) {
    const { application, clientSecret } = await this.applications.create(company, body);
    return { oauth_application: { ...this.wire(company, application), client_secret: clientSecret } };
  }

  @Get()
  @ApiPaged()
  @ApiOk(OAuthApplicationListSchema)
  @ApiProblems(400)
  @ApiDoc('List OAuth applications', 'The company’s OAuth applications, a page at a time; never their secrets.')
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest) {
    const { applications, total } = await this.applications.list(company, page);
    return { oauth_applications: applications.map((a) => this.wire(company, a)), meta: pageMeta(page, total) };
  }

  @Get(':id')
  @ApiOk(OAuthApplicationResponseSchema)
  @ApiProblems(404)
  @ApiDoc('Get an OAuth application', 'An OAuth application with its redirect URIs and the authorization and token URLs.')
  async get(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return { oauth_application: this.wire(company, await this.applications.get(company, id)) };
  }

  @Delete(':id')
  @ApiNoContent('Revoked')
  @ApiProblems(404)
  @ApiDoc('Revoke an OAuth application', 'The application and every token issued to it stop working at once.')
  @HttpCode(204)
  async revoke(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    await this.applications.revoke(company, id);
  }

  private wire(company: CompanyContext, application: OAuthApplication) {
    return serializeOAuthApplication(application, company.timeZone, this.config.publicUrl);
  }
}
