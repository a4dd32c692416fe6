// The letterhead logo on what the service ships: a company's logo (stored as the settings page stores
// it) is drawn on the reminder letter attached to the reminder e-mail that went out, and on an invoice
// the service rendered itself; without a logo a letter draws no image.
import type { ParsedMail } from 'mailparser';
import { parsePublicId } from '../../src/common/ids.js';
import { ShippingSettingsService } from '../../src/shipping/settings/shipping-settings.service.js';
import { DunningHarness, waitFor } from '../support/dunning.js';
import { withoutRateLimits } from '../support/factories.js';
import { shippingTestConfig } from '../support/shipping.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { useTestApp } from '../support/use-test-app.js';
import { imagesPerPage, makePng } from '../web/settings-support.js';

const pdfAttachmentOf = (mail: ParsedMail) => mail.attachments.find((a) => a.contentType === 'application/pdf')?.content;

describe('letters: the company logo in the letterhead', () => {
  let smtp: TestSmtp;
  let config: ReturnType<typeof shippingTestConfig>;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    config = shippingTestConfig(smtp.url);
  });
  const t = useTestApp(() => ({ ...withoutRateLimits(), ...config }), { reset: 'manual' });
  afterAll(async () => smtp.close());
  let d: DunningHarness;

  beforeEach(async () => {
    await smtp.reset();
    d = new DunningHarness(t.app);
    await d.reset();
  });

  const setLogo = (png: Buffer) =>
    t.app.get(ShippingSettingsService).setLogo({ id: parsePublicId('cmp', d.company.id)!, name: 'Firma', timeZone: 'Europe/Berlin' }, png);

  it('draws the logo on the reminder letter of the e-mail that went out, once, on its first page', async () => {
    await setLogo(makePng(300, 100));
    const invoiceId = await d.sentInvoice('2026-01-10', '119.00', { invoice_number: 'LOGO-1' });
    await d.runUntil('2026-01-17', invoiceId, 'reminder1_sent');
    const mail = await waitFor(
      () => Promise.resolve(smtp.received.find((m) => m.parsed.subject?.includes('LOGO-1'))),
      'the reminder e-mail',
    );
    const pdf = pdfAttachmentOf(mail.parsed);
    expect(pdf).toBeDefined();
    const images = await imagesPerPage(pdf!);
    expect(images[0]).toBe(1);
    expect(images.slice(1).every((n) => n === 0)).toBe(true);
  });

  it('draws it on an invoice the service renders, and no image once the logo is removed', async () => {
    await setLogo(makePng(100, 100));
    const invoiceId = await d.sentInvoice('2026-01-10', '238.00', { invoice_number: 'LOGO-2', net: '200.00', vat19: '38.00' });
    // An invoice the service holds no PDF of (as pulled from the ERP): its letter is rendered.
    await t.db.query(`UPDATE invoices SET pdf_key = NULL, pdf_size = NULL, pdf_sha256 = NULL WHERE id = $1`, [
      parsePublicId('inv', invoiceId),
    ]);
    const letter = async () => (await d.api().get(`/api/v1/invoices/${invoiceId}/letter`).expect(200)).body as Buffer;
    expect((await imagesPerPage(await letter()))[0]).toBe(1);
    await t.app
      .get(ShippingSettingsService)
      .removeLogo({ id: parsePublicId('cmp', d.company.id)!, name: 'Firma', timeZone: 'Europe/Berlin' });
    expect(await imagesPerPage(await letter())).toEqual([0]);
  });
});
