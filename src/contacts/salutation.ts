// The German greeting that opens letters and e-mails to a contact. The API's salutation_text keeps the
// spec's form (the whole name); letters and e-mails greet formally by title and surname (DIN 5008,
// ../shared/LETTERS-DE.md), and only when the surname can be told from the name for certain.
import { GREETING } from '../letters/messages.de.js';
import type { Gender, Salutation } from './contact.entity.js';

export function salutationText(salutation: Salutation, gender: Gender, name: string | null | undefined): string {
  const trimmed = name?.trim();
  if (salutation === 1) return trimmed ? `${GREETING.informal} ${trimmed}` : GREETING.informal;
  if (!trimmed || gender === 0) return GREETING.generic;
  return gender === 1 ? `${GREETING.male} ${trimmed}` : `${GREETING.female} ${trimmed}`;
}

/** The greeting of a letter or e-mail: "Sehr geehrte Frau Dr. Muster"; the generic one when in doubt. */
export function letterGreeting(salutation: Salutation, gender: Gender, name: string | null | undefined): string {
  if (salutation === 1) return salutationText(salutation, gender, name?.trim().split(/\s+/)[0]);
  const parsed = gender === 0 ? null : formalName(name ?? '');
  if (!parsed) return GREETING.generic;
  const title = parsed.title ? `${parsed.title} ` : '';
  return `${gender === 1 ? GREETING.male : GREETING.female} ${title}${parsed.surname}`;
}

/** Titles that belong in the greeting (DIN 5008: academic degrees "Dr.", "Prof."; "Dr. med." is greeted as "Dr."). */
const TITLES = /^(prof\.|dr\.(-ing\.)?|dr\.? ?(med|rer\. nat|phil|jur|h\. c)\.)$/i;
/** Words that make a name part of the surname: "von Muster", "van der Berg", "zu Guttenberg". */
const PARTICLES = new Set(['von', 'van', 'vom', 'zu', 'zum', 'zur', 'de', 'der', 'den', 'di', 'da', 'du', 'la', 'le', 'ten', 'ter']);
/** A form of address inside the name field, dropped: the gender field decides it. */
const ADDRESS_FORMS = new Set(['herr', 'herrn', 'frau']);
/** Signs of a firm or department rather than a person. */
const NOT_A_PERSON = /\d|@|&|\b(gmbh|ag|kg|ohg|gbr|e\.\s?k|ug|mbh|se|ltd|inc|llc|team|abteilung|buchhaltung|einkauf|verwaltung)\b/i;

/**
 * Title and surname of a person's name, or null when the name cannot be split for certain: names with
 * more than one given name or two unhyphenated surnames ("Anna Maria Muster", "Hans Müller Lüdenscheid")
 * are ambiguous, as are names of firms. "Muster, Erika" names its surname first.
 */
export function formalName(raw: string): { title: string | null; surname: string } | null {
  const name = raw.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (!name || NOT_A_PERSON.test(name)) return null;
  const parts = name.split(',').map((part) => part.trim());
  if (parts.length > 2) return null;
  if (parts.length === 2) {
    // "Muster, Dr. Erika": the surname is written out before the comma.
    const given = takeTitles(parts[1].split(' ').filter(Boolean));
    const surname = parts[0].split(' ').filter(Boolean);
    if (given.rest.length === 0 || !surname.every(isNameWord)) return null;
    return { title: given.title, surname: surname.join(' ') };
  }
  const words = name.split(' ');
  while (words.length > 0 && ADDRESS_FORMS.has(words[0].toLowerCase())) words.shift();
  const { title, rest } = takeTitles(words);
  const surname = surnameOf(rest);
  return surname ? { title, surname } : null;
}

/** The leading titles of a name (as greeted) and the words after them. */
function takeTitles(words: string[]): { title: string | null; rest: string[] } {
  const titles: string[] = [];
  let rest = words;
  for (;;) {
    if (rest.length > 1 && TITLES.test(rest.slice(0, 2).join(' '))) {
      titles.push(greetingTitle(rest.slice(0, 2).join(' ')));
      rest = rest.slice(2);
    } else if (rest.length > 0 && TITLES.test(rest[0])) {
      titles.push(greetingTitle(rest[0]));
      rest = rest.slice(1);
    } else break;
  }
  return { title: titles.length > 0 ? [...new Set(titles)].join(' ') : null, rest };
}

const isNameWord = (word: string) => /^\p{L}[\p{L}'’-]*$/u.test(word);

/** "Dr. med." is greeted "Dr."; "Dr.-Ing." as written. */
function greetingTitle(title: string): string {
  if (/^prof\.$/i.test(title)) return 'Prof.';
  if (/^dr\.-ing\.$/i.test(title)) return 'Dr.-Ing.';
  return 'Dr.';
}

/** The surname of [given name, (particles…), surname]; a single word is the surname itself. */
function surnameOf(words: string[]): string | null {
  if (words.length === 0 || !words.every(isNameWord)) return null;
  if (words.length === 1) return words[0];
  const [, ...rest] = words;
  const particles = rest.slice(0, -1);
  if (!particles.every((w) => PARTICLES.has(w.toLowerCase()))) return null;
  return rest.join(' ');
}
