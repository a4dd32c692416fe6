// Every migration, in order. Listed explicitly so the same list works compiled and under the test runner.
import { Foundation1763769600000 } from './1763769600000-foundation.js';
import { IdempotencyKeys1763769700000 } from './1763769700000-idempotency-keys.js';
import { Invoices1763769800000 } from './1763769800000-invoices.js';
import { JobQueue1763769900000 } from './1763769900000-job-queue.js';
import { Shipping1763770000000 } from './1763770000000-shipping.js';
import { Push1763770100000 } from './1763770100000-push.js';
import { ErpPull1763770200000 } from './1763770200000-erp-pull.js';
import { Dunning1763770300000 } from './1763770300000-dunning.js';
import { IdempotencyClaims1763770500000 } from './1763770500000-idempotency-claims.js';
import { PendingDocuments1763770500100 } from './1763770500100-pending-documents.js';
import { ShippingPrintDay1763770600000 } from './1763770600000-shipping-print-day.js';
import { OAuthOptionalPkce1763770700000 } from './1763770700000-oauth-optional-pkce.js';
import { ErpPullReconciliation1763770800000 } from './1763770800000-erp-pull-reconciliation.js';
import { PushDocumentQueue1764000500000 } from './1764000500000-push-document-queue.js';
import { DefaultInterest1764100000000 } from './1764100000000-default-interest.js';
import { InvoiceEventsLean1764100000100 } from './1764100000100-invoice-events-lean.js';
import { InvoicesLeanCompanyKey1764200000000 } from './1764200000000-invoices-lean-company-key.js';
import { PdfActiveContent1764300000000 } from './1764300000000-pdf-active-content.js';
import { InterestLines1764500000000 } from './1764500000000-interest-lines.js';
import { InvoiceSupply1764540000000 } from './1764540000000-invoice-supply.js';
import { ErpFetchInvoicePdfs1764540000100 } from './1764540000100-erp-fetch-invoice-pdfs.js';
import { WebSessions1764600000000 } from './1764600000000-web-sessions.js';
import { InvoiceList1764700000000 } from './1764700000000-invoice-list.js';
import { CustomerListName1764700000050 } from './1764700000050-customer-list-name.js';
import { DashboardFigures1764700000100 } from './1764700000100-dashboard-figures.js';
import { InvoiceSearch1764700000150 } from './1764700000150-invoice-search.js';
import { AccountLinks1764710000000 } from './1764710000000-account-links.js';
import { UserRoles1764720000000 } from './1764720000000-user-roles.js';
import { ApiKeyLastUse1764720000100 } from './1764720000100-api-key-last-use.js';
import { CompanySettings1764720000300 } from './1764720000300-company-settings.js';
import { RateLimitCounters1764800000100 } from './1764800000100-rate-limit-counters.js';
import { PushLeaseToken1764800000200 } from './1764800000200-push-lease-token.js';

export const migrations = [
  Foundation1763769600000,
  IdempotencyKeys1763769700000,
  Invoices1763769800000,
  JobQueue1763769900000,
  Shipping1763770000000,
  Push1763770100000,
  ErpPull1763770200000,
  Dunning1763770300000,
  IdempotencyClaims1763770500000,
  PendingDocuments1763770500100,
  ShippingPrintDay1763770600000,
  OAuthOptionalPkce1763770700000,
  ErpPullReconciliation1763770800000,
  PushDocumentQueue1764000500000,
  DefaultInterest1764100000000,
  InvoiceEventsLean1764100000100,
  InvoicesLeanCompanyKey1764200000000,
  PdfActiveContent1764300000000,
  InterestLines1764500000000,
  InvoiceSupply1764540000000,
  ErpFetchInvoicePdfs1764540000100,
  WebSessions1764600000000,
  InvoiceList1764700000000,
  CustomerListName1764700000050,
  DashboardFigures1764700000100,
  InvoiceSearch1764700000150,
  AccountLinks1764710000000,
  UserRoles1764720000000,
  ApiKeyLastUse1764720000100,
  CompanySettings1764720000300,
  RateLimitCounters1764800000100,
  PushLeaseToken1764800000200,
];
