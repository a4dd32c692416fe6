import { channelsOf, MODE_LEVELS, modeLevelsFor, type ModeSettings, resolveShippingMode, SHIPPING_MODES } from './shipping-mode.js';

const EMPTY = [undefined, null, ''] as const;
const VALUES = [...EMPTY, ...SHIPPING_MODES, 'bogus'];

/** Every combination of values on every level: 10^4 settings. */
function* everySetting(): Generator<ModeSettings> {
  for (const reminder of VALUES) for (const invoice of VALUES) for (const customer of VALUES) for (const company of VALUES) {
    yield { reminder, invoice, customer, company };
  }
}

const concrete = (value: string | null | undefined) => value !== undefined && value !== null && (SHIPPING_MODES as readonly string[]).includes(value) && value !== 'unknown';

describe(resolveShippingMode.name, () => {
  it('for every combination: the first level with a concrete mode wins, every level before it is empty or unknown', () => {
    let checked = 0;
    for (const settings of everySetting()) {
      const result = resolveShippingMode(settings);
      const winner = MODE_LEVELS.find((level) => concrete(settings[level]));
      if (winner === undefined) {
        expect(result).toEqual({ mode: 'unknown', source: null });
      } else {
        expect(result).toEqual({ mode: settings[winner], source: winner });
        for (const level of MODE_LEVELS.slice(0, MODE_LEVELS.indexOf(winner))) expect(concrete(settings[level])).toBe(false);
      }
      checked++;
    }
    expect(checked).toBe(VALUES.length ** 4);
  });

  it.each([
    [{ invoice: 'post', customer: 'email', company: 'email' }, 'post', 'invoice'],
    [{ invoice: null, customer: 'dual_shipping', company: 'email' }, 'dual_shipping', 'customer'],
    [{ invoice: 'unknown', customer: 'unknown', company: 'post' }, 'post', 'company'],
    [{ invoice: 'unknown', customer: null, company: 'unknown' }, 'unknown', null],
    [{ reminder: 'manual_shipping', invoice: 'email', company: 'post' }, 'manual_shipping', 'reminder'],
    [{ invoice: 'skip_shipping', customer: 'post', company: 'post' }, 'skip_shipping', 'invoice'],
    [{ company: 'email' }, 'email', 'company'],
    [{}, 'unknown', null],
  ])('%j → %s from %s', (settings, mode, source) => {
    expect(resolveShippingMode(settings as ModeSettings)).toEqual({ mode, source });
  });
});

describe(channelsOf.name, () => {
  it.each([
    ['email', ['email']],
    ['post', ['post']],
    ['dual_shipping', ['email', 'post']],
    ['skip_shipping', []],
    ['manual_shipping', []],
    ['unknown', []],
  ] as const)('%s ships through %j', (mode, channels) => expect(channelsOf(mode)).toEqual(channels));
});

describe(modeLevelsFor.name, () => {
  const levels = { reminder: null, invoice: 'skip_shipping', customer: 'post', company: 'email' };

  it("ships an invoice by its own mode and never asks a reminder's", () => {
    expect(resolveShippingMode(modeLevelsFor({ ...levels, reminder: 'email' }, 'invoice'))).toEqual({ mode: 'skip_shipping', source: 'invoice' });
  });

  it("lets a reminder of an invoice the client shipped itself (skip_shipping) go the customer's way", () => {
    expect(resolveShippingMode(modeLevelsFor(levels, 'reminder'))).toEqual({ mode: 'post', source: 'customer' });
  });

  it("keeps the invoice's other modes and the reminder's own skip_shipping for the reminder", () => {
    expect(resolveShippingMode(modeLevelsFor({ ...levels, invoice: 'manual_shipping' }, 'reminder'))).toEqual({ mode: 'manual_shipping', source: 'invoice' });
    expect(resolveShippingMode(modeLevelsFor({ ...levels, reminder: 'skip_shipping' }, 'reminder'))).toEqual({ mode: 'skip_shipping', source: 'reminder' });
  });
});
