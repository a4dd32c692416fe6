// Shipping invoices and reminders by e-mail, by post, or both: the decision (ShippingService, also used
// by invoices and the dunning engine), the durable delivery jobs and their worker, letters, settings.
import { forwardRef, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { CompaniesModule } from '../companies/companies.module.js';
import { ContactsModule } from '../contacts/contacts.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { DunningPolicyModule } from '../dunning/dunning-policy.module.js';
import { InvoicesModule } from '../invoices/invoices.module.js';
import { MailModule } from '../mail/mail.module.js';
import { DeliveryQueue } from './delivery-queue.js';
import { DeliveryService } from './delivery.service.js';
import { DeliveryWorker } from './delivery.worker.js';
import { PostalProvider } from './postal-provider.js';
import { createPostalProvider } from './postal-providers.js';
import { ShipmentOutcomes } from './shipment-outcomes.js';
import { ShipmentsController } from './shipments.controller.js';
import { ShipmentsRepository } from './shipments.repository.js';
import { ShippingContexts } from './shipping-context.js';
import { ShippingController } from './shipping.controller.js';
import { ShippingLetters } from './shipping-letters.js';
import { ShippingSettingsRepository } from './shipping-settings.repository.js';
import { ShippingSettingsService } from './shipping-settings.service.js';
import { ShippingService } from './shipping.service.js';
import { StalledDeliveries } from './stalled-deliveries.js';

@Module({
  // Invoices call ShippingService on release and autosend; shipping applies invoice transitions.
  imports: [forwardRef(() => InvoicesModule), CompaniesModule, CustomersModule, ContactsModule, DunningPolicyModule, MailModule],
  controllers: [ShippingController, ShipmentsController],
  providers: [
    ShipmentsRepository,
    ShippingSettingsRepository,
    ShippingSettingsService,
    ShippingContexts,
    ShippingLetters,
    ShipmentOutcomes,
    DeliveryQueue,
    DeliveryService,
    DeliveryWorker,
    StalledDeliveries,
    ShippingService,
    { provide: PostalProvider, useFactory: (config: AppConfig) => createPostalProvider(config.shipping), inject: [APP_CONFIG] },
  ],
  exports: [ShippingService, ShippingLetters, ShippingSettingsRepository],
})
export class ShippingModule {}
