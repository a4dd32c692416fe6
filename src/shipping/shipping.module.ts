// Shipping invoices and reminders by e-mail, by post, or both: release and autosend of an invoice
// (ReleaseService), the decision (ShippingService, also used by the dunning engine and the push), the
// durable delivery jobs and their worker, letters, settings.
import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { CompaniesModule } from '../companies/companies.module.js';
import { ContactsModule } from '../contacts/contacts.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { DunningPolicyModule } from '../companies/dunning-policy.module.js';
import { InvoicesModule } from '../invoices/invoices.module.js';
import { MailModule } from '../mail/mail.module.js';
import { DeliveryQueue } from './delivery/delivery-queue.js';
import { DeliveryService } from './delivery/delivery.service.js';
import { DeliveryWorker } from './delivery/delivery.worker.js';
import { PostalProvider } from './postal/postal-provider.js';
import { ReleaseController } from './release/release.controller.js';
import { ReleaseService } from './release/release.service.js';
import { createPostalProvider } from './postal/postal-providers.js';
import { ShipmentOutcomes } from './shipments/shipment-outcomes.js';
import { ShipmentsController } from './shipments/shipments.controller.js';
import { ShipmentsRepository } from './shipments/shipments.repository.js';
import { ShippingContexts } from './shipments/shipping-context.js';
import { ShippingController } from './shipments/shipping.controller.js';
import { ShippingLetters } from './letters/shipping-letters.js';
import { ActivePdfPolicy } from './settings/active-pdf-policy.js';
import { ShippingSettingsRepository } from './settings/shipping-settings.repository.js';
import { ShippingSettingsService } from './settings/shipping-settings.service.js';
import { ShipmentDecisions } from './shipments/shipment-decisions.js';
import { ShippingService } from './shipments/shipping.service.js';
import { StatementsOfClaim } from './letters/statements-of-claim.service.js';
import { StalledDeliveries } from './delivery/stalled-deliveries.js';

@Module({
  imports: [InvoicesModule, CompaniesModule, CustomersModule, ContactsModule, DunningPolicyModule, MailModule],
  controllers: [ReleaseController, ShippingController, ShipmentsController],
  providers: [
    ShipmentsRepository,
    ShippingSettingsRepository,
    ActivePdfPolicy,
    ShippingSettingsService,
    ShippingContexts,
    ShippingLetters,
    StatementsOfClaim,
    ShipmentOutcomes,
    DeliveryQueue,
    DeliveryService,
    DeliveryWorker,
    StalledDeliveries,
    ShippingService,
    ShipmentDecisions,
    ReleaseService,
    { provide: PostalProvider, useFactory: (config: AppConfig) => createPostalProvider(config.shipping), inject: [APP_CONFIG] },
  ],
  exports: [
    ShippingService,
    ShippingLetters,
    ShippingSettingsRepository,
    ShippingSettingsService,
    ActivePdfPolicy,
    ShippingContexts,
    ReleaseService,
    StatementsOfClaim,
  ],
})
export class ShippingModule {}
