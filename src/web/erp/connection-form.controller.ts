// Creating and editing an ERP connection (owners only): the form posts the API's fields, checked by the
// API's DTO and validation pipe and stored by the same service; a refusal shows the API's messages beside
// the fields and stores nothing.
import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { toPublicId } from '../../common/ids.js';
import { ReadsMultipart } from '../../common/multipart.guard.js';
import { createValidationPipe } from '../../common/validation.js';
import { CreateErpConnectionDto, UpdateErpConnectionDto } from '../../erp-pull/connections/dto/erp-connection.dto.js';
import type { ErpConnection } from '../../erp-pull/connections/erp-connection.entity.js';
import { ErpConnectionsService } from '../../erp-pull/connections/erp-connections.service.js';
import { refusalOf } from '../dunning/dunning-pages.js';
import { ExceptionPages } from '../exceptions/exception-pages.js';
import type { PageContext } from '../views/layout.js';
import { companyOf } from '../web-pages.js';
import type { SignedInUser } from '../web-users.repository.js';
import { authMethodOf, bodyOf, defaultValues, type FormValues, valuesOfConnection } from './connection-form.js';
import { asOwner, formErrors } from './erp-pages.js';
import { leadTo, readConnectionForm } from './pem-upload.js';
import { nextRuns } from './schedule-preview.js';
import { ConnectionFormPage } from './views/connection-form.js';

const pipe = createValidationPipe();

@Public()
@ApiExcludeController()
@Controller('integrations/erp')
export class ConnectionFormController {
  constructor(
    private readonly frame: ExceptionPages,
    private readonly connections: ErpConnectionsService,
  ) {}

  @Get('new')
  async newForm(@Query('auth') auth: unknown, @Req() req: Request, @Res() res: Response) {
    await asOwner(this.frame, req, res, (user, page) => {
      const method = authMethodOf(auth);
      return Promise.resolve({ status: 200, html: this.form(page, user, { method, values: defaultValues(method), errors: {} }) });
    });
  }

  @Post()
  @HttpCode(200)
  @ReadsMultipart()
  async create(@Req() req: Request, @Res() res: Response) {
    await asOwner(this.frame, req, res, async (user, page) => {
      const form = await this.read(req, res);
      const method = authMethodOf(form.values.fields.auth_method);
      try {
        this.refuseForm(form.errors);
        const dto = (await pipe.transform(form.body, { type: 'body', metatype: CreateErpConnectionDto })) as CreateErpConnectionDto;
        const created = await this.connections.create(companyOf(user), dto);
        return leadTo(this.frame, req, res, `/integrations/erp/${toPublicId('erp', created.id)}`, [{ key: 'erp.form.created' }]);
      } catch (error) {
        const errors = this.errorsOf(page, error, form.errors);
        return { status: 422, html: this.form(page, user, { method, values: form.values, errors, refused: true }) };
      }
    });
  }

  @Get(':id/edit')
  async editForm(@Param('id') id: string, @Query('auth') auth: unknown, @Req() req: Request, @Res() res: Response) {
    await asOwner(this.frame, req, res, async (user, page) => {
      const connection = await this.connections.get(companyOf(user), id);
      const method = authMethodOf(auth, connection.authMethod);
      const values = valuesOfConnection(connection);
      return { status: 200, html: this.form(page, user, { connection, method, values, errors: {} }) };
    });
  }

  @Post(':id')
  @HttpCode(200)
  @ReadsMultipart()
  async update(@Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    await asOwner(this.frame, req, res, async (user, page) => {
      const company = companyOf(user);
      const connection = await this.connections.get(company, id);
      const form = await this.read(req, res);
      const method = authMethodOf(form.values.fields.auth_method, connection.authMethod);
      try {
        this.refuseForm(form.errors);
        const dto = (await pipe.transform(form.body, { type: 'body', metatype: UpdateErpConnectionDto })) as UpdateErpConnectionDto;
        await this.connections.update(company, id, dto);
        return leadTo(this.frame, req, res, `/integrations/erp/${id}`, [{ key: 'erp.form.saved' }]);
      } catch (error) {
        const errors = this.errorsOf(page, error, form.errors);
        return { status: 422, html: this.form(page, user, { connection, method, values: form.values, errors, refused: true }) };
      }
    });
  }

  /** The form's fields, with the uploaded PEM files as text; the form's own findings by field. */
  private async read(req: Request, res: Response) {
    const { form, errors } = await readConnectionForm(req, res);
    const read = bodyOf(form);
    return { ...read, errors: { ...errors, ...read.errors } };
  }

  /** The form's own findings (no JSON, no PEM) are refused before the API's checks. */
  private refuseForm(errors: Record<string, string>): void {
    if (Object.keys(errors).length) throw new FormRefused();
  }

  private errorsOf(page: PageContext, error: unknown, own: Record<string, string>): Record<string, string> {
    if (error instanceof FormRefused)
      return Object.fromEntries(Object.entries(own).map(([field, code]) => [field, page.lang.t(`erp.form.${code}`)]));
    const refusal = refusalOf(error);
    return formErrors(refusal.fields, refusal.message);
  }

  private form(
    page: PageContext,
    user: SignedInUser,
    state: {
      connection?: ErpConnection;
      method: ErpConnection['authMethod'];
      values: FormValues;
      errors: Record<string, string>;
      refused?: boolean;
    },
  ) {
    const { connection } = state;
    return ConnectionFormPage({
      page,
      id: connection ? toPublicId('erp', connection.id) : undefined,
      name: connection?.name,
      method: state.method,
      values: state.values,
      errors: state.errors,
      secretsSet: Object.fromEntries((connection?.secretNames ?? []).map((name) => [name, true])),
      nextRuns: nextRuns(state.values.fields.schedule, user.timeZone),
      timeZone: user.timeZone,
      error: state.refused ? page.lang.t('erp.form.invalid') : undefined,
    });
  }
}

class FormRefused extends Error {}
