import { salutationText } from './salutation.js';

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
