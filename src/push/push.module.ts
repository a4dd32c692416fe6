// The push integration: POST /v2/documents, the processing worker with retries and dead letters,
// and the append-only audit log.
import { Module } from '@nestjs/common';
import { CompaniesModule } from '../companies/companies.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { InvoicesModule } from '../invoices/invoices.module.js';
import { ShippingModule } from '../shipping/shipping.module.js';
import { AuditLogController } from './audit/audit-log.controller.js';
import { DeadLettersController } from './documents/dead-letters.controller.js';
import { DocumentsController } from './intake/documents.controller.js';
import { LedgerRepository } from './ledger.repository.js';
import { CustomerProcessor } from './processors/customer.processor.js';
import { InvoiceProcessor } from './processors/invoice.processor.js';
import { LedgerProcessor } from './processors/ledger.processor.js';
import { PushAuditRepository } from './audit/push-audit.repository.js';
import { PushDocumentsRepository } from './documents/push-documents.repository.js';
import { PushDocumentsService } from './intake/push-documents.service.js';
import { PushSignal } from './queue/push-signal.js';
import { PushBatch } from './queue/push-batch.js';
import { PushClaimsRepository } from './queue/push-claims.repository.js';
import { PushQueueRepository } from './queue/push-queue.repository.js';
import { PushWorker } from './queue/push-worker.js';

@Module({
  imports: [CompaniesModule, CustomersModule, InvoicesModule, ShippingModule],
  controllers: [DocumentsController, DeadLettersController, AuditLogController],
  providers: [
    PushDocumentsRepository,
    PushAuditRepository,
    PushDocumentsService,
    LedgerRepository,
    LedgerProcessor,
    CustomerProcessor,
    InvoiceProcessor,
    PushClaimsRepository,
    PushQueueRepository,
    PushBatch,
    PushSignal,
    PushWorker,
  ],
  exports: [PushDocumentsService],
})
export class PushModule {}
