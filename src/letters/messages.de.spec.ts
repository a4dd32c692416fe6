// Every German text of letters and e-mails lives in messages.de.ts (issue 16): a German string literal in
// the code that builds them fails here. Sample data (*.sample.ts) and specs are not texts of the service.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { CLAIM, FILE_NAME, PAYMENT_REQUEST, TEMPLATES } from './messages.de.js';

const SRC = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['letters', 'shipping/letters', 'shipping/postal'];
const FILES = ['shipping/routing/recipients.ts'];

/** Umlauts and ß, the words of the trade (as prefixes: "Rechnungsnummer"), and small German words. */
const GERMAN =
  /[äöüÄÖÜß]|\b(?:Rechnung|Mahn|Zahlung|Forderung|Leistung|Betrag|Datum|Seite|Anlage|Brief|Steuer|Kunde|Auftrag|Sehr geehrte|Gl[aä]ubiger|Schuldner|Verzug|Zins|Pos\.|USt|Tel\.)|\b(?:Sie|Ihr|Ihre|wir|und|vom|von|bis|zur|auf|mit|Nr\.)(?=[\s.,:;!?)]|$)/;

function sourceFiles(): string[] {
  const inFolders = FOLDERS.flatMap((folder) =>
    readdirSync(join(SRC, folder))
      .filter((name) => /\.tsx?$/.test(name) && !/\.(spec|sample)\.ts$/.test(name) && name !== 'messages.de.ts')
      .map((name) => join(SRC, folder, name)),
  );
  return [...inFolders, ...FILES.map((file) => join(SRC, file))];
}

/** "file:line: text" for each string literal (or part of a template literal) that reads German. */
export function germanLiterals(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const literal =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node) ? node.text : null;
    const isModulePath = literal !== null && (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent));
    if (literal !== null && !isModulePath && GERMAN.test(literal)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${fileName}:${line}: ${JSON.stringify(literal)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the German message catalogue', () => {
  it('holds every German text of letters and e-mails: none is left literal in the code that builds them', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(15);
    const found = files.flatMap((file) => germanLiterals(relative(SRC, file), readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('recognises German literals, also in template literals and comments aside', () => {
    const code = [
      '// Rechnung in a comment is fine',
      "import { x } from './rechnung-von-bis.js';",
      "const a = 'Zu zahlender Betrag';",
      'const b = `Rechnungsnummer ${n}`;',
      'const c = `${n} vom ${d}`;',
      "const d = 'Fällig am';",
      "const e = { contentType: 'application/pdf', name: 'invoice PDF', key: `${id}/letter.pdf`, unit: 'undefined' };",
    ].join('\n');
    expect(germanLiterals('x.ts', code)).toEqual([
      'x.ts:3: "Zu zahlender Betrag"',
      'x.ts:4: "Rechnungsnummer "',
      'x.ts:5: " vom "',
      'x.ts:6: "Fällig am"',
    ]);
  });

  it('keeps the texts that were moved here word for word', () => {
    expect(TEMPLATES.invoiceEmailBody).toBe(
      '{salutation},\n\nanbei erhalten Sie unsere Rechnung {invoice_number} vom {invoice_date} über {total}\u00a0€. ' +
        'Bitte überweisen Sie den Betrag bis zum {due_date}.\n\nBei Fragen antworten Sie einfach auf diese E-Mail.\n\nMit freundlichen Grüßen\n{company_name}',
    );
    // LETTERS-DE: an amount and its € sign are joined by a non-breaking space, as in the invoice e-mail.
    expect(PAYMENT_REQUEST.emailBody).toBe(
      TEMPLATES.invoiceEmailBody.replace('unsere Rechnung', 'unsere Zahlungsaufforderung zur Rechnung'),
    );
    expect(PAYMENT_REQUEST.notAnInvoice('2026-001', '2026-11-02')).toBe(
      'Dieses Schreiben ersetzt die Rechnung nicht. Maßgeblich ist unsere Rechnung Nr. 2026-001 vom 02.11.2026; sie allein weist ' +
        'die Umsatzsteuer aus und berechtigt zum Vorsteuerabzug. Gern senden wir Ihnen auf Anfrage eine weitere Ausfertigung.',
    );
    expect(PAYMENT_REQUEST.request('R-1', null)).toBe('wir bitten Sie, den folgenden Betrag aus unserer Rechnung Nr. R-1 zu begleichen.');
    expect(CLAIM.origin('2026-0815', '2026-09-01', '2026-09-15')).toBe(
      'Forderung aus Rechnung Nr. 2026-0815 vom 01.09.2026, fällig am 15.09.2026',
    );
    expect(FILE_NAME.paymentRequest('2026-001')).toBe('Zahlungsaufforderung-2026-001.pdf');
  });
});
