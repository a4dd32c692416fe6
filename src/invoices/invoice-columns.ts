// The invoice table's columns from the entity's decorators, for statements that read or write whole
// invoices. Dates are read as text: TypeORM hands them out as 'YYYY-MM-DD' strings, pg as Date objects.
import { getMetadataArgsStorage } from 'typeorm';
import { Invoice } from './invoice.entity.js';

export function invoiceColumns(): Array<{ property: keyof Invoice; column: string; type: unknown }> {
  return getMetadataArgsStorage()
    .filterColumns(Invoice)
    .map((c) => ({ property: c.propertyName as keyof Invoice, column: c.options.name ?? c.propertyName, type: c.options.type }));
}

/** The SELECT list of a whole invoice in the entity's shape (`alias` is the invoices table's). */
export function invoiceSelect(alias: string): string {
  return invoiceColumns()
    .map((c) => `${alias}."${c.column}"${c.type === 'date' ? '::text' : ''} AS "${c.property}"`)
    .join(', ');
}
