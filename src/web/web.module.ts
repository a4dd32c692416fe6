// The accountants' web app: server-rendered pages over the same services as the API (src/web).
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { InvoicesModule } from '../invoices/invoices.module.js';
import { CustomerListRepository } from './customers/customer-list.repository.js';
import { CustomersWebController } from './customers/customers-web.controller.js';
import { ShippingModule } from '../shipping/shipping.module.js';
import { DunningPolicyModule } from '../companies/dunning-policy.module.js';
import { DashboardController } from './dashboard/dashboard.controller.js';
import { DashboardRepository } from './dashboard/dashboard.repository.js';
import { NeedsYouRepository } from './dashboard/needs-you.repository.js';
import { InvoiceActionsController } from './invoice-page/invoice-actions.controller.js';
import { InvoicePageController } from './invoice-page/invoice-page.controller.js';
import { INVOICE_OPERATIONS_CONTROLLERS, INVOICE_OPERATIONS_PROVIDERS } from './invoice-page/invoice-operations.registry.js';
import { InvoicePageRepository } from './invoice-page/invoice-page.repository.js';
import { InvoicePageService } from './invoice-page/invoice-page.service.js';
import { InvoicePaymentsController } from './invoice-page/invoice-payments.controller.js';
import { InvoiceListController } from './invoices/invoice-list.controller.js';
import { InvoiceListRepository } from './invoices/invoice-list.repository.js';
import { WebAuthController } from './web-auth.controller.js';
import { WebAuthService } from './web-auth.service.js';
import { WebPages } from './web-pages.js';
import { WebSessionsRepository } from './web-sessions.repository.js';
import { WebUsersRepository } from './web-users.repository.js';
import { ACCOUNT_CONTROLLERS, AccountCoreModule } from './account/account.js';

@Module({
  imports: [AuthModule, CustomersModule, InvoicesModule, ShippingModule, AccountCoreModule, DunningPolicyModule],
  controllers: [
    WebAuthController,
    DashboardController,
    ...ACCOUNT_CONTROLLERS,
    CustomersWebController,
    // Before InvoicePageController: its GET invoices/:id would answer /invoices/export.csv.
    InvoiceListController,
    InvoicePageController,
    InvoicePaymentsController,
    InvoiceActionsController,
    ...INVOICE_OPERATIONS_CONTROLLERS,
  ],
  providers: [
    WebPages,
    WebAuthService,
    WebUsersRepository,
    WebSessionsRepository,
    DashboardRepository,
    NeedsYouRepository,
    CustomerListRepository,
    InvoicePageService,
    InvoicePageRepository,
    InvoiceListRepository,
    ...INVOICE_OPERATIONS_PROVIDERS,
  ],
  exports: [WebPages, WebSessionsRepository],
})
export class WebModule {}
