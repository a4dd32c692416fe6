// The invoice page's operations as WebModule registers them: edit, shipping steps, statement of claim.
import { StatementsOfClaim } from '../../shipping/letters/statements-of-claim.service.js';
import { InvoiceEditController } from './invoice-edit.controller.js';
import { InvoiceOperationsService } from './invoice-operations.service.js';
import { InvoiceShippingController } from './invoice-shipping.controller.js';

export const INVOICE_OPERATIONS_CONTROLLERS = [InvoiceEditController, InvoiceShippingController];
// StatementsOfClaim is not among ShippingModule's exports; it holds no state, so the web app keeps its own
// instance (its repositories come from the modules WebModule imports).
export const INVOICE_OPERATIONS_PROVIDERS = [InvoiceOperationsService, StatementsOfClaim];
