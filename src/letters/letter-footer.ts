// The DIN 5008 footer every business document of the company carries, on every page: the legal details
// business letters must carry (name and legal form, seat, register court and number, managing directors,
// VAT ID / tax number — § 35a GmbHG, § 37a HGB, § 80 AktG, § 125a HGB), then address and contact, then
// the bank. Lines too long for their column wrap; a footer too long is set smaller, never cut.
import { type PDFPage, rgb } from 'pdf-lib';
import { A4, DIN5008 as D, MM } from './din5008.js';
import type { LetterSender } from './letter.js';
import { type FontSet, printable, wrapText } from './text-layout.js';

const GREY = rgb(0.35, 0.35, 0.35);

export function drawLetterFooter(
  page: PDFPage,
  fonts: FontSet,
  sender: Pick<LetterSender, 'name' | 'legal' | 'address' | 'contact' | 'bank'>,
): void {
  const top = (yMm: number) => (A4.height - yMm) * MM;
  const columns = [
    { x: D.left, width: 64, lines: sender.legal.length ? sender.legal : [sender.name] },
    { x: 92, width: 46, lines: [...sender.address, ...sender.contact] },
    { x: 141, width: D.right - 141, lines: sender.bank },
  ];
  page.drawLine({
    start: { x: D.left * MM, y: top(D.footerTop - 3.5) },
    end: { x: D.right * MM, y: top(D.footerTop - 3.5) },
    thickness: 0.3,
    color: GREY,
  });
  const wrapAt = (size: number) => columns.map((c) => c.lines.flatMap((line) => wrapText(line, fonts.regular, size, c.width * MM)));
  let size = 7;
  let wrapped = wrapAt(size);
  const most = () => Math.max(...wrapped.map((lines) => lines.length));
  if (most() > 6) wrapped = wrapAt((size = 6));
  const step = Math.min(3, (D.footerBottom - D.footerTop) / Math.max(most() - 1, 1));
  wrapped.forEach((lines, i) =>
    lines.forEach((line, n) => {
      if (line)
        page.drawText(printable(line, fonts.regular), {
          x: columns[i].x * MM,
          y: top(D.footerTop + n * step),
          size,
          font: fonts.regular,
          color: GREY,
        });
    }),
  );
}
