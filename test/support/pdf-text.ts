// Reads a PDF back as text (pdfjs-dist), line by line per page, to check what a rendered letter says.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

interface TextItem {
  str: string;
  transform: number[];
}

const require = createRequire(import.meta.url);
const fontsDir = `${join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** Each page as its lines from top to bottom; items on one baseline are joined by a space, left to right. */
export async function pdfPages(data: Uint8Array | Buffer): Promise<string[][]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(data), standardFontDataUrl: fontsDir, verbosity: 0 }).promise;
  const pages: string[][] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const items = (await page.getTextContent()).items as TextItem[];
    const byLine = new Map<number, TextItem[]>();
    for (const item of items.filter((i) => i.str.trim() !== '')) {
      const y = Math.round(item.transform[5]);
      byLine.set(y, [...(byLine.get(y) ?? []), item]);
    }
    pages.push(
      [...byLine.entries()]
        .sort(([a], [b]) => b - a)
        // No-break spaces (amount and €, the IBAN's groups) read as plain spaces.
        .map(([, line]) =>
          line
            .sort((a, b) => a.transform[4] - b.transform[4])
            .map((i) => i.str.replace(/\u00a0/g, ' '))
            .join(' '),
        ),
    );
  }
  await pdf.destroy();
  return pages;
}

export async function pdfText(data: Uint8Array | Buffer): Promise<string> {
  return (await pdfPages(data)).map((lines) => lines.join('\n')).join('\n\f\n');
}
