import { PDFDocument } from 'pdf-lib';
import { renderPdf } from '../../test/support/pdf-render.js';
import { pdfPages } from '../../test/support/pdf-text.js';
import type { LetterContent } from './letter.js';
import { mergePdfs, renderCoverLetter, renderLetter } from './letter-renderer.js';

function content(overrides: Partial<LetterContent> = {}): LetterContent {
  return {
    title: 'Zahlungserinnerung',
    sender: {
      name: 'Muster Handel GmbH',
      address: ['Hauptstraße 5', '10115 Berlin'],
      contact: ['Tel. 030 123456', 'buchhaltung@muster.de'],
      bank: ['IBAN DE89 3704 0044 0532 0130 00', 'BIC COBADEFFXXX'],
      legal: ['Muster Handel GmbH', 'Sitz: Berlin', 'Registergericht: Amtsgericht Charlottenburg, HRB 12345'],
    },
    returnAddress: 'Muster Handel GmbH · Hauptstraße 5 · 10115 Berlin',
    recipient: ['Kunde AG', 'z. Hd. Erika Müller', 'Allee 2', '20095 Hamburg'],
    info: [
      { label: 'Kundennummer', value: 'K-1001' },
      { label: 'Datum', value: '21.11.2026' },
    ],
    subject: 'Zahlungserinnerung zur Rechnung 2026-001',
    salutation: 'Sehr geehrte Frau Müller,',
    paragraphs: ['sicher haben Sie unsere Rechnung übersehen.'],
    amounts: [
      { label: 'Rechnungsbetrag', amount: '119,00 €' },
      { label: 'Mahngebühren', amount: '2,50 €' },
      { label: 'Offener Betrag', amount: '121,50 €', total: true },
    ],
    closingParagraphs: ['Bitte überweisen Sie 121,50 € bis zum 28.11.2026.'],
    closing: 'Mit freundlichen Grüßen',
    signature: 'Muster Handel GmbH',
    ...overrides,
  };
}

describe(renderLetter.name, () => {
  it('puts sender, address block, subject, greeting, amounts and closing on one A4 page, in reading order', async () => {
    const pdf = await renderLetter(content());
    const [page, ...more] = await pdfPages(pdf);
    expect(more).toEqual([]);
    const inOrder = [
      'Muster Handel GmbH',
      'Muster Handel GmbH · Hauptstraße 5 · 10115 Berlin',
      'Kunde AG',
      'z. Hd. Erika Müller',
      'Allee 2',
      '20095 Hamburg',
      'Zahlungserinnerung zur Rechnung 2026-001',
      'Sehr geehrte Frau Müller,',
      'sicher haben Sie unsere Rechnung übersehen.',
      'Rechnungsbetrag 119,00 €',
      'Mahngebühren 2,50 €',
      'Offener Betrag 121,50 €',
      'Bitte überweisen Sie 121,50 € bis zum 28.11.2026.',
      'Mit freundlichen Grüßen',
    ];
    const positions = inOrder.map((line) => page.findIndex((l) => l.includes(line)));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    const size = (await PDFDocument.load(pdf)).getPage(0).getSize();
    expect([Math.round(size.width), Math.round(size.height)]).toEqual([595, 842]);
  });

  it('shows the address inside the window area (20–105 mm from the left, 45–90 mm from the top)', async () => {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await pdfjs.getDocument({ data: await renderLetter(content()), verbosity: 0 }).promise;
    const items = (await (await doc.getPage(1)).getTextContent()).items as Array<{ str: string; transform: number[] }>;
    const mm = (pt: number) => (pt * 25.4) / 72;
    for (const line of ['Kunde AG', 'Allee 2', '20095 Hamburg']) {
      const item = items.find((i) => i.str === line);
      const fromTop = 297 - mm(item!.transform[5]);
      expect(mm(item!.transform[4])).toBeGreaterThanOrEqual(20);
      expect(mm(item!.transform[4])).toBeLessThan(105);
      expect(fromTop).toBeGreaterThan(62.7);
      expect(fromTop).toBeLessThan(90);
    }
    await doc.destroy();
  });

  it('continues a long text on a second page and numbers the pages', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `Absatz ${i + 1}: ${'Text '.repeat(30)}`);
    const pages = await pdfPages(await renderLetter(content({ paragraphs: long })));
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0].join('\n')).toContain('Seite 1 von');
    expect(pages.at(-1)!.join('\n')).toContain('Mit freundlichen Grüßen');
  });

  it('prints names and addresses beyond Latin-1 as written; only characters the font lacks become "?"', async () => {
    const recipient = ['Dvořák s.r.o.', 'ul. Łąkowa 7', '90-001 Łódź', 'Ελληνικά Ωμέγα', 'Москва Щукина', 'Tōkyō 中文'];
    const pages = await pdfPages(await renderLetter(content({ recipient, salutation: 'Dobrý den, pane Dvořáku,' })));
    expect(pages[0]).toEqual(expect.arrayContaining([...recipient.slice(0, 5), 'Tōkyō ??', 'Dobrý den, pane Dvořáku,']));
  });

  it('embeds only the glyphs a letter uses: a letter stays small', async () => {
    const pdf = await renderLetter(content({ recipient: ['Łódź 中文', 'Москва'] }));
    expect(pdf.length).toBeLessThan(120_000);
  });

  it('sets a footer longer than six lines smaller, dropping none, within the page', async () => {
    const legal = [
      'Muster Handel GmbH & Co. KG',
      'Sitz: Berlin',
      'Registergericht: Amtsgericht Charlottenburg, HRA 12345',
      'Persönlich haftende Gesellschafterin: Muster Verwaltungs GmbH, Sitz Berlin, Amtsgericht Charlottenburg, HRB 99999',
      'Geschäftsführer der Komplementärin: Erika Mustermann, Max Mustermann, Maria Musterfrau',
      'USt-IdNr. DE123456789 · Steuernr. 27/123/45678',
    ];
    const [page] = renderPdf(await renderLetter(content({ sender: { ...content().sender, legal } })));
    const footer = page.lines.filter((line) => line.y > 272 && line.x < 90);
    expect(footer.length).toBeGreaterThan(6);
    expect(footer.map((line) => line.text.trim()).join(' ')).toBe(legal.join(' '));
    for (const line of footer) expect(line.y + line.h).toBeLessThan(293);
  });

  it('puts a cover letter in front of other PDFs', async () => {
    const other = await renderLetter(content({ subject: 'Rechnung 2026-001', amounts: [] }));
    const { pdf, pages } = await renderCoverLetter(content({ subject: 'Ihre Rechnung' }), [other]);
    expect(pages).toBe(2);
    const text = await pdfPages(pdf);
    expect(text[0]).toContain('Ihre Rechnung');
    expect(text[1]).toContain('Rechnung 2026-001');
    expect((await mergePdfs([pdf, other])).pages).toBe(3);
  });
});
