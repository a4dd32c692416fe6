// Invoices: intake with documents, reads, updates, payments and the manual status actions.
import { Module } from '@nestjs/common';
import { CompaniesModule } from '../companies/companies.module.js';
import { ContactsModule } from '../contacts/contacts.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { DunningPolicyModule } from '../companies/dunning-policy.module.js';
import { BulkPaymentsService } from './bulk-payments.service.js';
import { InvoiceIntake } from './invoice-intake.service.js';
import { InvoiceParties } from './invoice-parties.js';
import { InterestCharges } from './interest/interest-charges.js';
import { InterestLines } from './interest/interest-lines.repository.js';
import { InvoiceLedger } from './ledger/invoice-ledger.js';
import { InvoiceTransitions } from './ledger/invoice-transitions.js';
import { PullLedger } from './ledger/pull-ledger.js';
import { InvoiceViews } from './invoice-views.js';
import { InvoicesController } from './invoices.controller.js';
import { InvoicesRepository } from './invoices.repository.js';
import { InvoicesService } from './invoices.service.js';
import { PaymentsRepository } from './payments.repository.js';
import { PaymentsService } from './payments.service.js';

@Module({
  // Release and autosend ship the invoice: shipping's ReleaseService does them with InvoiceIntake and InvoicesService.
  imports: [CompaniesModule, CustomersModule, ContactsModule, DunningPolicyModule],
  controllers: [InvoicesController],
  providers: [
    InvoicesRepository,
    PaymentsRepository,
    InvoiceTransitions,
    InvoiceLedger,
    PullLedger,
    InvoiceViews,
    InvoiceParties,
    InvoiceIntake,
    InvoicesService,
    PaymentsService,
    BulkPaymentsService,
    InterestLines,
    InterestCharges,
  ],
  exports: [
    InvoicesRepository,
    InvoiceTransitions,
    InvoiceLedger,
    PullLedger,
    InvoiceIntake,
    InvoicesService,
    PaymentsService,
    BulkPaymentsService,
    InvoiceParties,
    InterestLines,
    InterestCharges,
    PaymentsRepository,
  ],
})
export class InvoicesModule {}
