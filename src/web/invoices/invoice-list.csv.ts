// The CSV export of the invoice list: the whole filtered, sorted list, read in keyset batches and written
// through csv-stringify with backpressure, so neither the rows nor the file are ever held in memory.
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { toPublicId } from '../../common/ids.js';
import { Decimal } from '../../common/money.js';
import type { Lang } from '../i18n.js';
import type { ListRow } from './invoice-list.repository.js';

/**
 * The dialect is the one the user's Excel opens with a double click, without the import wizard:
 * - both: UTF-8 with a byte order mark (without it Excel reads the file as Windows-1252 and garbles
 *   umlauts) and CRLF line ends;
 * - de: `;` between cells and a decimal comma (German Excel's list separator is `;` because `,` is its
 *   decimal separator; with `,` every row would land in one cell), 1190,50;
 * - en: `,` and a decimal point, 1190.50.
 * Amounts carry no thousands separator (Excel would read 1.190,50 as text in other locales) and dates are
 * ISO 8601 (YYYY-MM-DD), which Excel reads as a date in either language.
 */
export function dialectOf(lang: Lang): { delimiter: string; decimal: string } {
  return lang.locale === 'de' ? { delimiter: ';', decimal: ',' } : { delimiter: ',', decimal: '.' };
}

/**
 * A text cell that a spreadsheet would run as a formula (=, +, -, @, and tab or carriage return, which some
 * start a formula with) gets a leading apostrophe: an invoice number or customer name from an ERP or an
 * API client is data, never a formula (CSV injection). Amounts are formatted by us and stay numbers.
 */
export function guardFormula(text: string | null): string {
  if (!text) return '';
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

export function csvFileName(lang: Lang, today: string): string {
  return `${lang.t('invoiceList.csv.file')}-${today}.csv`;
}

function header(lang: Lang): string[] {
  const key = (name: string) => lang.t(`invoiceList.csv.${name}`);
  return [
    'number',
    'externalId',
    'customer',
    'customerNumber',
    'date',
    'dueDate',
    'total',
    'openAmount',
    'status',
    'statusCode',
    'id',
    'customerId',
  ].map(key);
}

function record(lang: Lang, decimal: string, row: ListRow): string[] {
  const amount = (value: string) => new Decimal(value).toFixed(2).replace('.', decimal);
  return [
    guardFormula(row.invoiceNumber),
    guardFormula(row.externalId),
    guardFormula(row.customerName),
    guardFormula(row.customerNumber),
    row.invoiceDate ?? '',
    row.dueDate ?? '',
    amount(row.total),
    amount(row.openAmount),
    lang.t(`status.${row.status}`),
    row.status,
    toPublicId('inv', row.id),
    toPublicId('cus', row.customerId),
  ];
}

/** Resolves when the stream can take more, or when it ended (the client went away). */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** Writes the batches as the response; stops reading when the client goes away. */
export async function sendCsv(res: Response, lang: Lang, fileName: string, batches: AsyncIterable<ListRow[]>): Promise<void> {
  const { delimiter, decimal } = dialectOf(lang);
  const csv = stringify({ delimiter, bom: true, record_delimiter: 'windows' });
  res
    .status(200)
    .type('text/csv; charset=utf-8')
    .setHeader('Cache-Control', 'no-store')
    .setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
  const sent = pipeline(csv, res);
  try {
    csv.write(header(lang));
    for await (const rows of batches) {
      for (const row of rows) {
        if (!csv.write(record(lang, decimal, row))) await drained(csv);
        if (csv.destroyed) return;
      }
    }
    csv.end();
  } catch (error) {
    // The headers are out: the client sees a cut-off download, the error goes on to the log.
    csv.destroy(error as Error);
    throw error;
  } finally {
    await sent.catch(() => undefined);
  }
}
