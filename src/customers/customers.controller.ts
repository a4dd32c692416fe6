import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ExternalIdPipe } from '../common/external-id.pipe.js';
import { CurrentCompany } from '../auth/auth.decorators.js';
import { Idempotent } from '../idempotency/idempotency.interceptor.js';
import type { CompanyContext } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { type PageRequest, pageMeta, Pagination } from '../common/pagination.js';
import { CustomerListSchema, CustomerSchema, serializeCustomer } from './customer.serializer.js';
import { type CustomerWithContacts, CustomersService } from './customers.service.js';
import { CreateCustomerDto, UpdateCustomerDto } from './dto/customer.dto.js';
import { ApiCreated, ApiDoc, ApiFormBody, ApiOk, ApiPaged, ApiProblems } from '../openapi/responses.js';

@ApiTags('customers')
@ApiProblems(401, 403, 429)
@Controller('api/v1/customers')
export class CustomersController {
  constructor(
    private readonly customers: CustomersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiDoc('Create a customer', 'Creates a customer of the company; `external_id` must be unique within the company (case-insensitive).')
  @HttpCode(201)
  @Idempotent()
  @ApiFormBody({ idempotent: true })
  @ApiCreated(CustomerSchema)
  @ApiProblems(400, 409, 413, 415, 422)
  async create(@CurrentCompany() company: CompanyContext, @Body() body: CreateCustomerDto) {
    return this.wire(company, await this.customers.create(company, body));
  }

  @Get()
  @ApiDoc('List customers', 'The company’s customers with their contacts, a page at a time.')
  @ApiPaged()
  @ApiOk(CustomerListSchema)
  @ApiProblems(400)
  async list(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest) {
    const { items, total } = await this.customers.list(company, page);
    return { customers: items.map((item) => this.wire(company, item)), meta: pageMeta(page, total) };
  }

  @Get('find/:externalId')
  @ApiDoc('Find a customer by external_id', 'The customer whose `external_id` matches (case-insensitive).')
  @ApiOk(CustomerSchema, 'The customer with this external_id (case-insensitive)')
  @ApiProblems(404)
  async find(@CurrentCompany() company: CompanyContext, @Param('externalId', ExternalIdPipe) externalId: string) {
    return this.wire(company, await this.customers.find(company, externalId));
  }

  @Get(':id')
  @ApiDoc('Get a customer', 'A customer with all its contacts.')
  @ApiOk(CustomerSchema)
  @ApiProblems(404)
  async get(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return this.wire(company, await this.customers.get(company, id));
  }

  @Patch(':id')
  @ApiDoc('Update a customer', 'Changes the fields sent; fields not sent keep their values, an empty value clears an optional field.')
  @ApiFormBody()
  @ApiOk(CustomerSchema, 'The customer with the updated values')
  @ApiProblems(400, 404, 409, 413, 415, 422)
  async update(@CurrentCompany() company: CompanyContext, @Param('id') id: string, @Body() body: UpdateCustomerDto) {
    return this.wire(company, await this.customers.update(company, id, body));
  }

  private wire(company: CompanyContext, { customer, contacts }: CustomerWithContacts) {
    return serializeCustomer(customer, contacts, { timeZone: company.timeZone, publicUrl: this.config.publicUrl });
  }
}
