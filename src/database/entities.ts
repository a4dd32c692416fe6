import { ApiKey } from '../auth/api-key.entity.js';
import { ApiToken } from '../auth/api-token.entity.js';
import { User } from '../auth/user.entity.js';
import { Company } from '../companies/company.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { Customer } from '../customers/customer.entity.js';
import { ErpConnection } from '../erp-pull/connections/erp-connection.entity.js';
import { PullRun } from '../erp-pull/run/pull-run.entity.js';
import { InvoiceEvent } from '../invoices/invoice-event.entity.js';
import { Invoice } from '../invoices/invoice.entity.js';
import { Payment } from '../invoices/payment.entity.js';
import { Reminder } from '../invoices/reminder.entity.js';

export const entities = [Company, User, ApiToken, ApiKey, Customer, Contact, Invoice, Payment, Reminder, InvoiceEvent, ErpConnection, PullRun];
