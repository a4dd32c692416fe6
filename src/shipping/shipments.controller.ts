// Company-wide views of shipping: what needs attention, and the shipping settings.
import { Body, Controller, Get, Inject, Patch } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentCompany } from '../auth/auth.decorators.js';
import type { CompanyContext } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { type PageRequest, pageMeta, Pagination } from '../common/pagination.js';
import { ApiPaged, ApiProblems } from '../openapi/responses.js';
import { UpdateShippingSettingsDto } from './dto/shipping-settings.dto.js';
import { serializeShipment } from './shipment.serializer.js';
import { serializeShippingSettings } from './shipping-settings.serializer.js';
import { ShippingSettingsService } from './shipping-settings.service.js';
import { ShippingService } from './shipping.service.js';

@ApiTags('shipping')
@Controller('api/v1')
export class ShipmentsController {
  constructor(
    private readonly shipping: ShippingService,
    private readonly settings: ShippingSettingsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Flagged shipments that are still the newest of their document: nothing went out, or a channel failed. */
  @Get('shipments/attention')
  @ApiResponse({ status: 200, description: '`{shipments: [...], meta}`: flagged shipments that are still the newest of their document' })
  @ApiPaged()
  @ApiProblems(400)
  async attention(@CurrentCompany() company: CompanyContext, @Pagination() page: PageRequest) {
    const { shipments, total } = await this.shipping.needingAttention(company, page);
    const ctx = { timeZone: company.timeZone, publicUrl: this.config.publicUrl };
    return { shipments: shipments.map((s) => serializeShipment(s, ctx)), meta: pageMeta(page, total) };
  }

  @Get('shipping_settings')
  @ApiResponse({ status: 200, description: '`{shipping_settings: {...}}` with the German defaults where nothing is set' })
  async getSettings(@CurrentCompany() company: CompanyContext) {
    return serializeShippingSettings(await this.settings.get(company));
  }

  @Patch('shipping_settings')
  @ApiResponse({ status: 200, description: '`{shipping_settings: {...}}`; empty text clears a field (a template: back to its default)' })
  @ApiProblems(422)
  async updateSettings(@CurrentCompany() company: CompanyContext, @Body() body: UpdateShippingSettingsDto) {
    return serializeShippingSettings(await this.settings.update(company, body));
  }
}
