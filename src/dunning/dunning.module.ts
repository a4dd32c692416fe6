// The dunning engine: policy API, the daily run (scheduled and on demand), proposal, approvals and
// the sending of reminders.
import { Module } from '@nestjs/common';
import { ErpPullModule } from '../erp-pull/erp-pull.module.js';
import { InvoicesModule } from '../invoices/invoices.module.js';
import { ShippingModule } from '../shipping/shipping.module.js';
import { DunningController } from './dunning.controller.js';
import { ApprovalsController } from './approvals/approvals.controller.js';
import { ApprovalsRepository } from './approvals/approvals.repository.js';
import { ApprovalsService } from './approvals/approvals.service.js';
import { DunningPolicyModule } from '../companies/dunning-policy.module.js';
import { DunningRunRepository } from './dunning-run.repository.js';
import { DunningRunService } from './dunning-run.service.js';
import { DunningRunsRepository } from './dunning-runs.repository.js';
import { DunningScheduler } from './dunning-scheduler.js';
import { DunningService } from './dunning.service.js';
import { ReminderDispatchRepository } from './reminder-dispatch.repository.js';
import { ReminderDispatch } from './reminder-dispatch.service.js';

@Module({
  imports: [InvoicesModule, DunningPolicyModule, ShippingModule, ErpPullModule],
  controllers: [DunningController, ApprovalsController],
  providers: [
    ApprovalsRepository,
    ApprovalsService,
    DunningRunRepository,
    DunningRunsRepository,
    DunningRunService,
    DunningService,
    DunningScheduler,
    ReminderDispatchRepository,
    ReminderDispatch,
  ],
  exports: [DunningRunService, DunningService, ApprovalsService],
})
export class DunningModule {}
