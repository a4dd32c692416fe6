// The owners' settings pages of the web app (/settings/company, /settings/shipping and the letterhead's
// logo), over the companies' and shipping's own services.
import { Module } from '@nestjs/common';
import { CompaniesModule } from '../../companies/companies.module.js';
import { ShippingModule } from '../../shipping/shipping.module.js';
import { WebModule } from '../web.module.js';
import { CompanySettingsController } from './company-settings.controller.js';
import { LetterLogoController } from './letter-logo.controller.js';
import { ShippingSettingsController } from './shipping-settings.controller.js';
import { ShippingSettingsView } from './shipping-settings.view.js';

@Module({
  imports: [WebModule, CompaniesModule, ShippingModule],
  controllers: [CompanySettingsController, ShippingSettingsController, LetterLogoController],
  providers: [ShippingSettingsView],
})
export class SettingsWebModule {}
