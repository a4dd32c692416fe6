import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ExternalIdPipe } from '../common/external-id.pipe.js';
import { CurrentCompany } from '../auth/auth.decorators.js';
import { Idempotent } from '../idempotency/idempotency.interceptor.js';
import type { CompanyContext } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { type PageRequest, pageMeta, Pagination } from '../common/pagination.js';
import { serializeCustomer } from './customer.serializer.js';
import { type CustomerWithContacts, CustomersService } from './customers.service.js';
import { CreateCustomerDto, UpdateCustomerDto } from './dto/customer.dto.js';

@ApiTags('customers')
@Controller('api/v1/customers')
export class CustomersController {
  constructor(
    private readonly customers: CustomersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(201)
  @Idempotent()
  async create(@CurrentCompany() company: CompanyContext, @Body() body: CreateCustomerDto) {
    return this.wire(company, await this.customers.create(company, body));
  }

  @Get()
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest) {
    const { items, total } = await this.customers.list(company, page);
    return { customers: items.map((item) => this.wire(company, item)), meta: pageMeta(page, total) };
  }

  @Get('find/:externalId')
  async find(@CurrentCompany() company: CompanyContext, @Param('externalId', ExternalIdPipe) externalId: string) {
    return this.wire(company, await this.customers.find(company, externalId));
  }

  @Get(':id')
  async get(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return this.wire(company, await this.customers.get(company, id));
  }

  @Patch(':id')
  async update(@CurrentCompany() company: CompanyContext, @Param('id') id: string, @Body() body: UpdateCustomerDto) {
    return this.wire(company, await this.customers.update(company, id, body));
  }

  private wire(company: CompanyContext, { customer, contacts }: CustomerWithContacts) {
    return serializeCustomer(customer, contacts, { timeZone: company.timeZone, publicUrl: this.config.publicUrl });
  }
}
