// The dunning pages of the web app (/dunning …): workbench, runs, policy and base rates, over the
// dunning engine's own services.
import { Module } from '@nestjs/common';
import { DunningModule } from '../../dunning/dunning.module.js';
import { InvoicesModule } from '../../invoices/invoices.module.js';
import { ShippingModule } from '../../shipping/shipping.module.js';
import { WebModule } from '../web.module.js';
import { BaseRatesController } from './base-rates.controller.js';
import { DunningPages } from './dunning-pages.js';
import { DunningWebRepository } from './dunning-web.repository.js';
import { PolicyController } from './policy.controller.js';
import { ReminderPreviews } from './reminder-preview.service.js';
import { RunsController } from './runs.controller.js';
import { WorkbenchController } from './workbench.controller.js';
import { WorkbenchService } from './workbench.service.js';

@Module({
  imports: [WebModule, DunningModule, InvoicesModule, ShippingModule],
  // The runs controller first: /dunning/runs must not be taken for a preview or the workbench's routes.
  controllers: [RunsController, PolicyController, BaseRatesController, WorkbenchController],
  providers: [DunningPages, DunningWebRepository, WorkbenchService, ReminderPreviews],
})
export class DunningWebModule {}
