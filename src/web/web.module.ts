// The accountants' web app: server-rendered pages over the same services as the API (src/web).
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { InvoicesModule } from '../invoices/invoices.module.js';
import { DashboardController } from './dashboard/dashboard.controller.js';
import { DashboardRepository } from './dashboard/dashboard.repository.js';
import { NeedsYouRepository } from './dashboard/needs-you.repository.js';
import { InvoiceListController } from './invoices/invoice-list.controller.js';
import { InvoiceListRepository } from './invoices/invoice-list.repository.js';
import { WebAuthController } from './web-auth.controller.js';
import { WebAuthService } from './web-auth.service.js';
import { WebPages } from './web-pages.js';
import { WebPagesController } from './web-pages.controller.js';
import { WebSessionsRepository } from './web-sessions.repository.js';
import { WebUsersRepository } from './web-users.repository.js';
import { ACCOUNT_CONTROLLERS, AccountCoreModule } from './account/account.js';

@Module({
  imports: [AuthModule, CustomersModule, InvoicesModule, AccountCoreModule],
  // InvoiceListController before WebPagesController: its GET invoices/:id would answer /invoices/export.csv.
  controllers: [WebAuthController, InvoiceListController, WebPagesController, DashboardController, ...ACCOUNT_CONTROLLERS],
  providers: [
    WebPages,
    WebAuthService,
    WebUsersRepository,
    WebSessionsRepository,
    DashboardRepository,
    NeedsYouRepository,
    InvoiceListRepository,
  ],
  exports: [WebPages, WebSessionsRepository],
})
export class WebModule {}
