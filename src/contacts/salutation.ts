// The German greeting that opens letters and e-mails to a contact.
import type { Gender, Salutation } from './contact.entity.js';

export function salutationText(salutation: Salutation, gender: Gender, name: string | null | undefined): string {
  const trimmed = name?.trim();
  if (salutation === 1) return trimmed ? `Hallo ${trimmed}` : 'Hallo';
  if (!trimmed || gender === 0) return 'Sehr geehrte Damen und Herren';
  return gender === 1 ? `Sehr geehrter Herr ${trimmed}` : `Sehr geehrte Frau ${trimmed}`;
}
