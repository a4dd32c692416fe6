// The letters' typeface: DejaVu Sans (npm package dejavu-fonts-ttf; Bitstream Vera licence, DejaVu
// changes public domain), embedded as a subset, so that names and addresses beyond Latin-1 — Łódź,
// Dvořák, Ελλάδα, Москва — print as written. The font files are read and parsed once per process;
// each document embeds only the glyphs it uses. Characters the font lacks (CJK) fall back in printable().
//
// Text is laid out one glyph per character (the font's cmap, advance widths; no OpenType shaping):
// shaping made a letter five times slower and buys nothing for the Latin, Greek and Cyrillic text of
// letters, which is NFC-normalised first. Scripts that need shaping (Arabic) would print unjoined.
import fontkit from '@pdf-lib/fontkit';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { PDFDocument } from 'pdf-lib';
import { type FontSet, shareCharacterSet } from './text-layout.js';

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type ParsedFont = Awaited<ReturnType<Fontkit['create']>>;

const require = createRequire(import.meta.url);
const file = (name: string): Uint8Array => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));

let files: { regular: Uint8Array; bold: Uint8Array } | undefined;
const parsed = new Map<Uint8Array, { font: ParsedFont; characters: Set<number> }>();

/** pdf-lib parses a font on every embedFont(); this fontkit hands out the font parsed the first time. */
const cachingFontkit: Fontkit = {
  create(data: Uint8Array, postscriptName?: string): ParsedFont {
    return parse(data, postscriptName).font;
  },
};

function parse(data: Uint8Array, postscriptName?: string) {
  let entry = parsed.get(data);
  if (!entry) {
    const font = fontkit.create(data, postscriptName);
    entry = { font: withPlainLayout(font), characters: new Set(font.characterSet) };
    parsed.set(data, entry);
  }
  return entry;
}

/** Replaces the font's shaping layout by a glyph-per-character mapping (see the header), glyphs cached. */
function withPlainLayout(font: ParsedFont): ParsedFont {
  const glyphs = new Map<number, ReturnType<ParsedFont['glyphForCodePoint']>>();
  const layout = (text: string) => {
    const run: Array<ReturnType<ParsedFont['glyphForCodePoint']>> = [];
    for (const char of text) {
      const code = char.codePointAt(0) as number;
      let glyph = glyphs.get(code);
      if (!glyph) {
        glyph = font.glyphForCodePoint(code);
        glyphs.set(code, glyph);
      }
      run.push(glyph);
    }
    return { glyphs: run, positions: [] };
  };
  return Object.assign(font, { layout: layout as unknown as ParsedFont['layout'] });
}

/** Embeds the regular and bold faces into a document (subset: only the glyphs drawn end up in the file). */
export async function embedLetterFonts(doc: PDFDocument): Promise<FontSet> {
  files ??= { regular: file('DejaVuSans.ttf'), bold: file('DejaVuSans-Bold.ttf') };
  doc.registerFontkit(cachingFontkit);
  const [regular, bold] = await Promise.all([doc.embedFont(files.regular, { subset: true }), doc.embedFont(files.bold, { subset: true })]);
  shareCharacterSet(regular, parse(files.regular).characters);
  shareCharacterSet(bold, parse(files.bold).characters);
  return { regular, bold };
}
