// The "needs you" pages of the web app: shipments needing attention, invoices blocked for dunning, and
// the push integration's documents, dead letters and audit log. Same services as the API.
import { Module } from '@nestjs/common';
import { ContactsModule } from '../../contacts/contacts.module.js';
import { CustomersModule } from '../../customers/customers.module.js';
import { PushModule } from '../../push/push.module.js';
import { ShippingModule } from '../../shipping/shipping.module.js';
import { DeadLettersPagesController } from '../push/dead-letters-pages.controller.js';
import { PushPagesController } from '../push/push-pages.controller.js';
import { WebModule } from '../web.module.js';
import { BlockedPagesController } from './blocked.controller.js';
import { ExceptionPages } from './exception-pages.js';
import { ExceptionsRepository } from './exceptions.repository.js';
import { ShipmentRetry } from './shipment-retry.js';
import { ShipmentsPagesController } from './shipments.controller.js';

@Module({
  imports: [WebModule, ShippingModule, PushModule, ContactsModule, CustomersModule],
  controllers: [ShipmentsPagesController, BlockedPagesController, PushPagesController, DeadLettersPagesController],
  providers: [ExceptionPages, ExceptionsRepository, ShipmentRetry],
})
export class ExceptionsWebModule {}
