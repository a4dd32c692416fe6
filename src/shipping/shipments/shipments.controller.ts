// Company-wide views of shipping: what needs attention, and the shipping settings.
import { Body, Controller, Get, Inject, Patch, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentCompany } from '../../auth/auth.decorators.js';
import type { CompanyContext } from '../../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { type PageRequest, pageMeta, Pagination } from '../../common/pagination.js';
import { ApiDoc, ApiOk, ApiPaged, ApiProblems } from '../../openapi/responses.js';
import { parseAttentionFilter } from './attention-filter.js';
import { UpdateShippingSettingsDto } from '../settings/shipping-settings.dto.js';
import { serializeShipment, ShipmentAttentionListSchema } from './shipment.serializer.js';
import { serializeShippingSettings, ShippingSettingsResponseSchema } from '../settings/shipping-settings.serializer.js';
import { ShippingSettingsService } from '../settings/shipping-settings.service.js';
import { ShippingService } from './shipping.service.js';

@ApiTags('shipping')
@ApiProblems(401, 403, 429)
@Controller('api/v1')
export class ShipmentsController {
  constructor(
    private readonly shipping: ShippingService,
    private readonly settings: ShippingSettingsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The documents that did not go out and wait for someone: shipping failed, or could not start (mode
   * unknown at every level, no e-mail address) — each still the newest shipment of its document.
   */
  @Get('shipments/attention')
  @ApiDoc(
    'List shipments that need attention',
    'Invoices and reminders that were not shipped and need action (failed, mode unknown, no e-mail address); filter by invoice_id, document',
  )
  @ApiQuery({ name: 'invoice_id', required: false, description: 'only this invoice (inv-…)' })
  @ApiQuery({ name: 'document', required: false, enum: ['invoice', 'reminder'] })
  @ApiOk(ShipmentAttentionListSchema, '`{shipments: [...], meta}`: flagged shipments that are still the newest of their document')
  @ApiPaged()
  @ApiProblems(400)
  async attention(@CurrentCompany() company: CompanyContext, @Query() query: Record<string, unknown>, @Pagination() page: PageRequest) {
    const { shipments, total } = await this.shipping.needingAttention(company, parseAttentionFilter(query), page);
    const ctx = { timeZone: company.timeZone, publicUrl: this.config.publicUrl };
    return { shipments: shipments.map((s) => serializeShipment(s, ctx)), meta: pageMeta(page, total) };
  }

  @Get('shipping_settings')
  @ApiDoc(
    'Get the shipping settings',
    'Sender, bank details, reply address, cover page and the e-mail and letter texts, with the German defaults where nothing is set.',
  )
  @ApiOk(ShippingSettingsResponseSchema, '`{shipping_settings: {...}}` with the German defaults where nothing is set')
  async getSettings(@CurrentCompany() company: CompanyContext) {
    return serializeShippingSettings(await this.settings.get(company));
  }

  @Patch('shipping_settings')
  @ApiDoc('Update the shipping settings', 'Changes the fields sent; empty text clears a field (a template goes back to its default).')
  @ApiOk(ShippingSettingsResponseSchema, '`{shipping_settings: {...}}`; empty text clears a field (a template: back to its default)')
  @ApiProblems(400, 413, 415, 422)
  async updateSettings(@CurrentCompany() company: CompanyContext, @Body() body: UpdateShippingSettingsDto) {
    return serializeShippingSettings(await this.settings.update(company, body));
  }
}
