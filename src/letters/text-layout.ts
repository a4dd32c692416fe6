// Text for the letters' font: characters it has no glyph for are replaced (an accented letter by its
// base letter, anything else by "?"), and paragraphs are wrapped to a width.
import type { PDFFont } from 'pdf-lib';

export interface FontSet {
  regular: PDFFont;
  bold: PDFFont;
}

const characterSets = new WeakMap<PDFFont, Set<number>>();

/** The characters of an embedded font, known already (computing them anew for each document is slow). */
export function shareCharacterSet(font: PDFFont, characters: Set<number>): void {
  characterSets.set(font, characters);
}

function charactersOf(font: PDFFont): Set<number> {
  let set = characterSets.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    characterSets.set(font, set);
  }
  return set;
}

/** The text with every character the font cannot show replaced; tabs and line breaks become spaces. */
export function printable(text: string, font: PDFFont): string {
  const known = charactersOf(font);
  let out = '';
  for (const char of text.normalize('NFC').replace(/[\t\r\n]+/g, ' ')) {
    const code = char.codePointAt(0) as number;
    if (known.has(code)) {
      out += char;
      continue;
    }
    // "ř" → "r", "ł" stays unknown → "?": a readable address beats a failed letter.
    const base = char.normalize('NFD').replace(/\p{M}/gu, '');
    out += base.length > 0 && [...base].every((c) => known.has(c.codePointAt(0) as number)) ? base : '?';
  }
  return out;
}

/** Lines of at most `maxWidth` points; "\n" in the text forces a break, overlong words are cut. */
export function wrapText(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= maxWidth;
  for (const raw of text.split('\n')) {
    let line = '';
    for (const word of printable(raw, font).split(' ').filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (fits(candidate)) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = word;
      while (!fits(line)) {
        let cut = line.length - 1;
        while (cut > 1 && !fits(line.slice(0, cut))) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    lines.push(line);
  }
  return lines;
}
