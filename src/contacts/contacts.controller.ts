import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ExternalIdPipe } from '../common/external-id.pipe.js';
import { CurrentCompany } from '../auth/auth.decorators.js';
import { Idempotent } from '../idempotency/idempotency.interceptor.js';
import type { CompanyContext } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { ContactResponseSchema, serializeContact } from './contact.serializer.js';
import { type ContactWithCustomer, ContactsService } from './contacts.service.js';
import { CreateContactDto, UpdateContactDto } from './dto/contact.dto.js';
import { ApiCreated, ApiDoc, ApiFormBody, ApiOk, ApiProblems } from '../openapi/responses.js';

@ApiTags('contacts')
@ApiProblems(401, 403, 429)
@Controller('api/v1/contacts')
export class ContactsController {
  constructor(
    private readonly contacts: ContactsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiDoc('Create a contact', 'Creates a contact person of a customer (`contact[customer_id]`); answers `{"contact": …}`.')
  @HttpCode(201)
  @Idempotent()
  @ApiFormBody({ idempotent: true })
  @ApiCreated(ContactResponseSchema)
  @ApiProblems(400, 409, 413, 415, 422)
  async create(@CurrentCompany() company: CompanyContext, @Body() body: CreateContactDto) {
    return this.wire(company, await this.contacts.create(company, body));
  }

  @Get('find/:externalId')
  @ApiDoc('Find a contact by external_id', 'The contact whose `external_id` matches (case-insensitive).')
  @ApiOk(ContactResponseSchema, 'The contact with this external_id (case-insensitive)')
  @ApiProblems(404)
  async find(@CurrentCompany() company: CompanyContext, @Param('externalId', ExternalIdPipe) externalId: string) {
    return this.wire(company, await this.contacts.find(company, externalId));
  }

  @Get(':id')
  @ApiDoc('Get a contact', 'A contact with its customer, reduced; answers `{"contact": …}`.')
  @ApiOk(ContactResponseSchema)
  @ApiProblems(404)
  async get(@CurrentCompany() company: CompanyContext, @Param('id') id: string) {
    return this.wire(company, await this.contacts.get(company, id));
  }

  @Patch(':id')
  @ApiDoc('Update a contact', 'Changes the fields sent; fields not sent keep their values.')
  @ApiFormBody()
  @ApiOk(ContactResponseSchema, 'The contact with the updated values')
  @ApiProblems(400, 404, 409, 413, 415, 422)
  async update(@CurrentCompany() company: CompanyContext, @Param('id') id: string, @Body() body: UpdateContactDto) {
    return this.wire(company, await this.contacts.update(company, id, body));
  }

  private wire(company: CompanyContext, { contact, customer }: ContactWithCustomer) {
    const ctx = { timeZone: company.timeZone, publicUrl: this.config.publicUrl };
    return { contact: serializeContact(contact, customer, ctx) };
  }
}
