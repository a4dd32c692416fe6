import { letterGreeting, salutationText } from './salutation.js';

describe('salutationText', () => {
  it.each([
    [0, 1, 'Müller', 'Sehr geehrter Herr Müller'],
    [0, 2, 'Schmidt', 'Sehr geehrte Frau Schmidt'],
    [0, 0, 'Alex Meier', 'Sehr geehrte Damen und Herren'],
    [0, 1, '', 'Sehr geehrte Damen und Herren'],
    [0, 2, '   ', 'Sehr geehrte Damen und Herren'],
    [1, 0, 'Alex', 'Hallo Alex'],
    [1, 1, 'Max', 'Hallo Max'],
    [1, 2, 'Erika', 'Hallo Erika'],
    [1, 2, null, 'Hallo'],
  ] as const)('salutation %i, gender %i, name %p → %s', (salutation, gender, name, expected) => {
    expect(salutationText(salutation, gender, name)).toBe(expected);
  });
});

describe('letterGreeting', () => {
  it.each([
    [1, 'Max Muster', 'Sehr geehrter Herr Muster'],
    [2, 'Erika Muster', 'Sehr geehrte Frau Muster'],
    [2, 'Muster', 'Sehr geehrte Frau Muster'],
    [1, 'Dr. Max Muster', 'Sehr geehrter Herr Dr. Muster'],
    [2, 'Prof. Dr. Erika Muster', 'Sehr geehrte Frau Prof. Dr. Muster'],
    [1, 'Dr. med. Hans Meier', 'Sehr geehrter Herr Dr. Meier'],
    [1, 'Herr Dr.-Ing. Jens Kühn', 'Sehr geehrter Herr Dr.-Ing. Kühn'],
    [2, 'Frau Erika Muster', 'Sehr geehrte Frau Muster'],
    [2, 'Anna-Lena Schulze-Berg', 'Sehr geehrte Frau Schulze-Berg'],
    [1, 'Karl von der Heide', 'Sehr geehrter Herr von der Heide'],
    [2, 'Muster, Dr. Erika', 'Sehr geehrte Frau Dr. Muster'],
    [1, 'Müller Lüdenscheid, Hans', 'Sehr geehrter Herr Müller Lüdenscheid'],
    [2, '  erika   Muster ', 'Sehr geehrte Frau Muster'],
  ] as const)('gender %i, %p → %s', (gender, name, expected) => {
    expect(letterGreeting(0, gender, name)).toBe(expected);
  });

  it.each([
    [2, 'Anna Maria Muster', 'two given names or two surnames: which is it?'],
    [1, 'Hans Müller Lüdenscheid', 'two given names or two surnames: which is it?'],
    [0, 'Erika Muster', 'gender unknown'],
    [2, '', 'no name'],
    [1, 'Buchhaltung', 'a department'],
    [2, 'Kunde GmbH', 'a firm'],
    [1, 'Max Muster & Söhne', 'a firm'],
    [1, 'M. Muster', 'an initial'],
    [1, 'Dr.', 'a title without a name'],
    [2, 'Muster, Erika, Dr.', 'more than one comma'],
  ] as const)('gender %i, %p → the generic greeting (%s)', (gender, name, _why) => {
    expect(letterGreeting(0, gender, name)).toBe('Sehr geehrte Damen und Herren');
  });

  it('greets informally by the first name', () => expect(letterGreeting(1, 2, 'Erika Muster')).toBe('Hallo Erika'));
});
