// A company's legal details in its shipping settings: stored and answered under their wire names,
// validated (VAT ID by country format, tax number), and what the legal form requires but is missing is
// named in the answer's warnings.
import { shippingApi } from '../support/shipping.js';
import { useTestApp } from '../support/use-test-app.js';

describe('shipping settings: company legal details', () => {
  const t = useTestApp({}, { company: true });
  const api = () => shippingApi(t.app, t.company);

  it('a company without them is warned, naming the missing details and their sources', async () => {
    const { body } = await api().get('/api/v1/shipping_settings').expect(200);
    expect(body.shipping_settings).toMatchObject({
      legal_form: null,
      registered_office: null,
      register_court: null,
      register_number: null,
      managing_directors: [],
      general_partner: null,
      vat_id: null,
      tax_number: null,
    });
    expect(body.shipping_settings.warnings).toEqual([
      expect.stringMatching(/^legal_form is not set: .*§ 35a GmbHG/),
      expect.stringMatching(/^neither vat_id nor tax_number is set: .*§ 14 \(4\) Nr\. 2 UStG/),
    ]);
  });

  it('a GmbH must name register court, number and managing directors; set, they are answered and the warnings go', async () => {
    const partial = await api().patch('/api/v1/shipping_settings', { legal_form: 'gmbh', registered_office: 'Berlin' }).expect(200);
    expect(partial.body.shipping_settings.warnings).toEqual([
      'register_court is not set: business letters of a GmbH must show it (§ 35a GmbHG)',
      'register_number is not set: business letters of a GmbH must show it (§ 35a GmbHG)',
      'managing_directors is not set: business letters of a GmbH must show it (§ 35a GmbHG)',
      expect.stringMatching(/^neither vat_id nor tax_number/),
    ]);

    const complete = await api()
      .patch('/api/v1/shipping_settings', {
        register_court: 'Amtsgericht Charlottenburg',
        register_number: 'HRB 12345',
        managing_directors: ['Erika Mustermann', ' Max Mustermann '],
        vat_id: 'de 123 456 789',
        tax_number: '27/123/45678',
      })
      .expect(200);
    const expected = {
      legal_form: 'gmbh',
      registered_office: 'Berlin',
      register_court: 'Amtsgericht Charlottenburg',
      register_number: 'HRB 12345',
      managing_directors: ['Erika Mustermann', 'Max Mustermann'],
      vat_id: 'DE123456789',
      tax_number: '27/123/45678',
      warnings: [],
    };
    expect(complete.body.shipping_settings).toMatchObject(expected);
    expect((await api().get('/api/v1/shipping_settings').expect(200)).body.shipping_settings).toMatchObject(expected);
  });

  it('a registered merchant (e.K.) needs no managing directors; empty values clear a field', async () => {
    await api()
      .patch('/api/v1/shipping_settings', {
        legal_form: 'ek',
        registered_office: 'Köln',
        register_court: 'Amtsgericht Köln',
        register_number: 'HRA 9876',
        managing_directors: ['Erika Mustermann'],
        vat_id: 'ATU12345678',
      })
      .expect(200);
    const cleared = await api().patch('/api/v1/shipping_settings', { managing_directors: [], register_number: '' }).expect(200);
    expect(cleared.body.shipping_settings).toMatchObject({ managing_directors: [], register_number: null, vat_id: 'ATU12345678' });
    expect(cleared.body.shipping_settings.warnings).toEqual([
      'register_number is not set: business letters of a e.K. must show it (§ 37a HGB)',
    ]);
  });

  it('refuses malformed VAT IDs and tax numbers and unknown legal forms with 422, changing nothing', async () => {
    await api().patch('/api/v1/shipping_settings', { vat_id: 'DE123456789' }).expect(200);
    for (const [field, value] of [
      ['vat_id', 'DE12345678'], // one digit short
      ['vat_id', 'ATU1234567'],
      ['vat_id', 'XX123456789'], // no such prefix
      ['vat_id', 'US123456789'],
      ['tax_number', '12-345-678'],
      ['tax_number', '123'],
      ['legal_form', 'Ltd'],
      ['managing_directors', 'x'.repeat(201)],
    ]) {
      const res = await api()
        .patch('/api/v1/shipping_settings', { [field]: value })
        .expect(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ field })]);
    }
    for (const vatId of ['FRXX123456789', 'NL123456789B01', 'IE1234567FA', 'ESX1234567X', 'ATU12345678'])
      await api().patch('/api/v1/shipping_settings', { vat_id: vatId }).expect(200);
    expect((await api().get('/api/v1/shipping_settings')).body.shipping_settings.vat_id).toBe('ATU12345678');
  });
});
