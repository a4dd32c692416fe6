// The invoice page's operations as WebModule registers them: edit, shipping steps, statement of claim.
import { InvoiceEditController } from './invoice-edit.controller.js';
import { InvoiceOperationsService } from './invoice-operations.service.js';
import { InvoiceShippingController } from './invoice-shipping.controller.js';

export const INVOICE_OPERATIONS_CONTROLLERS = [InvoiceEditController, InvoiceShippingController];
export const INVOICE_OPERATIONS_PROVIDERS = [InvoiceOperationsService];
