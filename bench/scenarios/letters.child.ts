// Child process of the `letters` scenario: renders reminder letters exactly as shipping does (content
// from letter-content.ts, DIN 5008 layout from src/letters) and hands them to the print-batch provider.
// Reports to the parent over IPC: times, sizes and peak RSS after each phase.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Contact } from '../../src/contacts/contact.entity.js';
import type { Customer } from '../../src/customers/customer.entity.js';
import { DEFAULT_POLICY } from '../../src/companies/dunning-policy.js';
import type { Invoice } from '../../src/invoices/invoice.entity.js';
import type { Reminder } from '../../src/invoices/reminder.entity.js';
import { renderLetter } from '../../src/letters/letter-renderer.js';
import { reminderLetter } from '../../src/shipping/letters/letter-content.js';
import { PrintBatchProvider } from '../../src/shipping/postal/print-batch.provider.js';
import { withDefaults } from '../../src/shipping/settings/shipping-settings.js';

export interface LettersResult {
  letters: number;
  renderMs: number;
  /** CPU time of the rendering (user + system): the figure a busy machine does not distort. */
  renderCpuMs: number;
  bytes: number;
  renderPeakRssMb: number;
  batchLetters: number;
  batchMs: number;
  batchCpuMs: number;
  batchPeakRssMb: number;
  /** PDF files of sample letters (levels 1–3, one to Poland). */
  samples: string[];
}

const settings = withDefaults({
  senderStreet: 'Hauptstraße 5',
  senderZip: '10115',
  senderCity: 'Berlin',
  senderEmail: 'buchhaltung@muster-handel.de',
  senderPhone: '030 1234567',
  bankIban: 'DE89370400440532013000',
  bankBic: 'COBADEFFXXX',
  bankName: 'Commerzbank',
});
const STREETS = ['Allee', 'Hauptstraße', 'Am Markt', 'Gartenweg', 'Industriestraße'];
const CITIES = [
  ['20095', 'Hamburg'],
  ['80331', 'München'],
  ['50667', 'Köln'],
  ['01067', 'Dresden'],
  ['1010', 'Wien'],
  ['90-001', 'Łódź'],
];
const COUNTRIES: Record<string, string> = { Wien: 'AT', Łódź: 'PL' };

/** The n-th letter's data: varied names, addresses, amounts and levels, one in three abroad (Austria, Poland). */
function letterData(n: number) {
  const [zip, city] = CITIES[n % CITIES.length];
  const stage = (n % 3) + 1;
  const total = (19.99 + ((n * 37.31) % 4800)).toFixed(2);
  const fees = stage === 1 ? '0.00' : '2.50';
  const customer = {
    name: city === 'Łódź' ? `Wójcik ${n} sp. z o.o.` : `Kunde ${n} GmbH`,
    addressLine1: city === 'Łódź' ? `Wójcik ${n} sp. z o.o.` : `Kunde ${n} GmbH`,
    addressLine2: n % 2 ? `z. Hd. ${n % 3 === 1 ? 'Herrn Max' : 'Frau Erika'} Müller-${n}` : null,
    addressLine3: `${STREETS[n % STREETS.length]} ${1 + (n % 120)}`,
    addressLine4: null,
    zip,
    city,
    countryCode: COUNTRIES[city] ?? 'DE',
    customerNumber: `K-${10000 + n}`,
  } as Customer;
  const gender = (n % 3) as 0 | 1 | 2; // unknown, male, female
  const contact = { name: `${gender === 1 ? 'Max' : 'Erika'} Müller-${n}`, gender, salutation: 0 } as Contact;
  const invoice = {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    invoiceNumber: `2026-${String(n).padStart(5, '0')}`,
    externalId: null,
    invoiceDate: '2026-10-01',
    dueDate: '2026-10-15',
    originalTotal: total,
    reminderFees: stage === 3 ? '2.50' : '0.00',
    paidAmount: n % 4 === 0 ? '10.00' : '0.00',
    waivedAmount: '0.00',
    openAmount: (Number(total) + (stage === 3 ? 2.5 : 0) - (n % 4 === 0 ? 10 : 0)).toFixed(2),
  } as Invoice;
  const reminder = { reminderStage: stage, reminderDate: '2026-11-21', fees, dispatchedAt: null } as Reminder;
  const level = DEFAULT_POLICY.levels[stage - 1];
  return reminderLetter({ companyName: 'Muster Handel GmbH', settings, invoice, customer, contact }, reminder, {
    text: level.text,
    paymentTermDays: level.paymentTermDays,
    fee: level.fee,
  });
}

const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function main(): Promise<void> {
  const { letters, batchLetters, samplesDir } = JSON.parse(process.argv[2]) as {
    letters: number;
    batchLetters: number;
    samplesDir: string;
  };
  await mkdir(samplesDir, { recursive: true });
  const samples: string[] = [];
  for (const n of [0, 1, 2, 5]) {
    const file = join(samplesDir, `reminder-${n}-level-${(n % 3) + 1}.pdf`);
    await writeFile(file, await renderLetter(letterData(n)));
    samples.push(file);
  }
  for (let i = 0; i < 20; i++) await renderLetter(letterData(i)); // warm-up: JIT, font metrics
  const pdfs: Uint8Array[] = [];
  let bytes = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let n = 0; n < letters; n++) {
    const pdf = await renderLetter(letterData(n));
    bytes += pdf.length;
    if (n < batchLetters) pdfs.push(pdf);
  }
  const renderMs = performance.now() - started;
  const renderCpuMs = cpuMsSince(cpu);
  const renderPeakRssMb = peakRssMb();

  const dir = await mkdtemp(join(tmpdir(), 'bench-print-batch-'));
  const provider = new PrintBatchProvider(dir, 60_000);
  const batchStarted = performance.now();
  const batchCpu = process.cpuUsage();
  for (const [n, pdf] of pdfs.entries()) {
    await provider.submit({
      reference: `letter-${n}`,
      companyId: 'bench',
      day: '2026-11-21',
      description: `Mahnung ${n}`,
      recipient: ['Kunde', 'Straße 1', '20095 Hamburg'],
      pdf,
      pages: 1,
    });
  }
  await provider.flush(); // the merged PDF, rebuilt once for the whole batch
  const batchMs = performance.now() - batchStarted;
  const batchCpuMs = cpuMsSince(batchCpu);
  await rm(dir, { recursive: true, force: true });
  const result: LettersResult = {
    letters,
    renderMs,
    renderCpuMs,
    bytes,
    renderPeakRssMb,
    batchLetters: pdfs.length,
    batchMs,
    batchCpuMs,
    batchPeakRssMb: peakRssMb(),
    samples,
  };
  process.send?.(result);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
