// /api/v1/oauth_applications: OAuth clients of the company, managed with the REST API token.
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentCompany } from '../auth/auth.decorators.js';
import type { CompanyContext } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { type PageRequest, pageMeta, Pagination } from '../common/pagination.js';
import { CreateOAuthApplicationDto } from './dto/oauth-application.dto.js';
import { serializeOAuthApplication } from './oauth-application.serializer.js';
import { OAuthApplicationsService } from './oauth-applications.service.js';
import type { OAuthApplication } from './oauth-applications.repository.js';

@ApiTags('oauth applications')
@Controller('api/v1/oauth_applications')
export class OAuthApplicationsController {
  constructor(
    private readonly applications: OAuthApplicationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(201)
  async create(@CurrentCompany() company: CompanyContext, @Body() body: CreateOAuthApplicationDto) {
    const { application, clientSecret } = await this.applications.create(company, body);
    return { oauth_application: { ...this.wire(company, application), client_secret: clientSecret } };
  }

  @Get()
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest) {
    const { applications, total } = await this.applications.list(company, page);
    return { oauth_applications: applications.map((a) => this.wire(company, a)), meta: pageMeta(page, total) };
  }

  @Get(':id')
  async get(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return { oauth_application: this.wire(company, await this.applications.get(company, id)) };
  }

  @Delete(':id')
  @HttpCode(204)
  async revoke(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    await this.applications.revoke(company, id);
  }

  private wire(company: CompanyContext, application: OAuthApplication) {
    return serializeOAuthApplication(application, company.timeZone, this.config.publicUrl);
  }
}
