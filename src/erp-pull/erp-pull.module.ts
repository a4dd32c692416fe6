// ERP pull: connections (settings, sealed secrets, test), scheduled and requested pull runs, and the
// set-based mapping of ERP customers and receivable items onto customers, invoices and payments, and the
// check before a reminder whether the ERP has cleared the item meanwhile.
import { Module } from '@nestjs/common';
import { DunningPolicyModule } from '../companies/dunning-policy.module.js';
import { SecretBox } from '../config/secret-box.js';
import { InvoicesModule } from '../invoices/invoices.module.js';
import { ClearingCheckRepository } from './clearing/clearing-check.repository.js';
import { ClearingInquiry } from './clearing/clearing-inquiry.js';
import { ErpClearingCheck } from './clearing/erp-clearing-check.js';
import { ConnectionProbe } from './connections/connection-probe.js';
import { ErpClients } from './connections/erp-clients.js';
import { ErpConnectionsController } from './connections/erp-connections.controller.js';
import { ErpConnectionsRepository } from './connections/erp-connections.repository.js';
import { ErpConnectionsService } from './connections/erp-connections.service.js';
import { ErpInvoicePdfs } from './documents/erp-invoice-pdfs.js';
import { ErpPullRunner } from './run/erp-pull.runner.js';
import { ErpPullScheduler } from './run/erp-pull.scheduler.js';
import { ErpPullService } from './run/erp-pull.service.js';
import { PullRunsRepository } from './run/pull-runs.repository.js';
import { PulledItemsWriter } from './run/pulled-items.writer.js';
import { PullReconciliationRepository } from './reconcile/pull-reconciliation.repository.js';
import { PullTransitionsRepository } from './run/pull-transitions.repository.js';
import { PullUpsertsRepository } from './run/pull-upserts.repository.js';
import { PullReconciler } from './reconcile/pull-reconciler.js';
import { PullStreams } from './run/pull-stream.js';
import { RunProgress } from './run/run-progress.js';

@Module({
  imports: [InvoicesModule, DunningPolicyModule],
  controllers: [ErpConnectionsController],
  providers: [
    SecretBox,
    ErpClients,
    ConnectionProbe,
    ErpConnectionsRepository,
    PullRunsRepository,
    PullUpsertsRepository,
    PullReconciliationRepository,
    PullTransitionsRepository,
    PulledItemsWriter,
    ErpConnectionsService,
    RunProgress,
    PullStreams,
    PullReconciler,
    ErpInvoicePdfs,
    ErpPullRunner,
    ErpPullService,
    ErpPullScheduler,
    ClearingCheckRepository,
    ClearingInquiry,
    ErpClearingCheck,
  ],
  exports: [ErpPullService, ErpConnectionsService, ErpClearingCheck],
})
export class ErpPullModule {}
