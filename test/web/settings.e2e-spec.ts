// The owners' settings pages over HTTP: the shipping settings form through the API's validation and
// service, the letterhead logo (upload checked by its bytes and size, preview, removal), the company's
// name, time zone and contact e-mail; a member gets the 403 page on every GET and POST and changes
// nothing; another company is never touched.
import request from 'supertest';
import { parsePublicId } from '../../src/common/ids.js';
import { useTestApp } from '../support/use-test-app.js';
import { addUser } from './roles-support.js';
import { makePng } from './settings-support.js';
import { csrfOf, registerUser, signIn, type WebUser } from './web-support.js';

type Agent = ReturnType<typeof request.agent>;

describe('settings pages (HTTP)', () => {
  const t = useTestApp();
  let owner: WebUser;
  let browser: Agent;

  const api = (user: WebUser) => ({
    settings: async () =>
      (await request(t.app.getHttpServer()).get('/api/v1/shipping_settings').set('Authorization', user.company.auth).expect(200)).body
        .shipping_settings,
  });
  const companyRow = async (user: WebUser) =>
    (
      await t.db.query(`SELECT name, time_zone, contact_email FROM companies WHERE id = $1`, [parsePublicId('cmp', user.company.id)])
    )[0] as { name: string; time_zone: string; contact_email: string | null };
  const logoCount = async (user: WebUser) =>
    Number(
      (await t.db.query(`SELECT count(*) AS n FROM letter_logos WHERE company_id = $1`, [parsePublicId('cmp', user.company.id)]))[0].n,
    );

  const signedIn = async (user: WebUser) => {
    const agent = request.agent(t.app.getHttpServer());
    expect((await signIn(agent, user.email)).status).toBe(303);
    return agent;
  };
  const csrf = async (agent: Agent, from = '/dashboard') => csrfOf((await agent.get(from)).text);
  /** Posts the form with the CSRF token of a page and expects the status. */
  const post = async (agent: Agent, path: string, form: Record<string, string>, status: number) => {
    const token = await csrf(agent);
    return agent
      .post(path)
      .type('form')
      .send({ _csrf: token, ...form })
      .expect(status);
  };
  const upload = async (agent: Agent, file: Buffer, filename: string, status: number) => {
    const token = await csrf(agent);
    return agent.post('/settings/shipping/logo').field('_csrf', token).attach('logo', file, filename).expect(status);
  };

  beforeEach(async () => {
    owner = await registerUser(t.app, 'Einstellungs GmbH');
    browser = await signedIn(owner);
  });

  it('shows every shipping setting with its explanation and saves the form through the API’s service', async () => {
    const page = await browser.get('/settings/shipping').expect(200);
    for (const field of ['shipping_mode', 'autosend', 'sender_name', 'bank_iban', 'legal_form', 'managing_directors', 'reminder1_title'])
      expect(page.text).toMatch(new RegExp(`id="${field}"[^>]*aria-describedby="${field}-help"`));
    expect(page.text).toContain('aria-current="page"');
    const saved = await post(
      browser,
      '/settings/shipping',
      {
        shipping_mode: 'post',
        autosend: 'true',
        autoskip_shipping: 'false',
        sender_street: 'Hauptstraße 5',
        sender_zip: '10115',
        sender_city: 'Berlin',
        bank_iban: 'DE89 3704 0044 0532 0130 00',
        legal_form: 'gmbh',
        managing_directors: 'Erika Mustermann\r\nMax Mustermann',
        reminder1_title: '',
      },
      303,
    );
    expect(saved.headers.location).toBe('/settings/shipping?done=saved');
    expect((await browser.get(saved.headers.location).expect(200)).text).toContain('Die Einstellungen sind gespeichert.');
    expect(await api(owner).settings()).toMatchObject({
      shipping_mode: 'post',
      autosend: true,
      sender_street: 'Hauptstraße 5',
      bank_iban: 'DE89370400440532013000',
      legal_form: 'gmbh',
      managing_directors: ['Erika Mustermann', 'Max Mustermann'],
      reminder1_title: 'Zahlungserinnerung',
    });
  });

  it('shows the API’s reason beside a refused field and changes nothing', async () => {
    const before = await api(owner).settings();
    const res = await post(
      browser,
      '/settings/shipping',
      {
        bank_iban: 'DE00 1234',
        sender_email: 'keine-adresse',
        reminder_email_subject: 'Mahnung {unbekannt}',
        sender_city: 'Hamburg',
      },
      422,
    );
    expect(res.text).toMatch(/id="bank_iban-error"[^>]*>bank_iban must be an IBAN/);
    expect(res.text).toMatch(/id="sender_email-error"/);
    expect(res.text).toContain('Bitte prüfen Sie die markierten Felder.');
    // What was typed stays in the form.
    expect(res.text).toMatch(/id="sender_city"[^>]*value="Hamburg"/);
    expect(await api(owner).settings()).toEqual(before);
    const templates = await post(browser, '/settings/shipping', { reminder_email_subject: 'Mahnung {unbekannt}' }, 422);
    expect(templates.text).toMatch(/id="reminder_email_subject-error"[^>]*>unknown placeholders \{unbekannt\}/);
  });

  it('stores a PNG logo, shows it through the session-checked route, and removes it', async () => {
    const png = makePng(120, 40);
    const res = await upload(browser, png, 'logo.png', 303);
    expect(res.headers.location).toBe('/settings/shipping?done=uploaded');
    const page = await browser.get('/settings/shipping').expect(200);
    expect(page.text).toContain('src="/settings/shipping/logo"');
    const image = await browser.get('/settings/shipping/logo').expect(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(image.body as Buffer, png)).toBe(0);
    // Signed out: no image, the way to sign in.
    await request(t.app.getHttpServer()).get('/settings/shipping/logo').expect(303);
    await post(browser, '/settings/shipping/logo/remove', {}, 303);
    await browser.get('/settings/shipping/logo').expect(404);
    expect(await logoCount(owner)).toBe(0);
  });

  it('refuses a file that is no PNG or JPEG whatever its name, and one over 512 KB, beside the field', async () => {
    const fake = await upload(browser, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'logo.png', 422);
    expect(fake.text).toMatch(/id="logo-error"[^>]*>Diese Datei ist kein PNG- oder JPEG-Bild/);
    const broken = await upload(browser, Buffer.concat([makePng(4, 4).subarray(0, 30)]), 'logo.png', 422);
    expect(broken.text).toMatch(/id="logo-error"/);
    const large = await upload(browser, makePng(450, 450, undefined, true), 'logo.png', 413);
    expect(large.text).toMatch(/id="logo-error"[^>]*>Die Datei ist größer als 512 KB/);
    const none = await browser
      .post('/settings/shipping/logo')
      .field('_csrf', await csrf(browser))
      .expect(422);
    expect(none.text).toMatch(/id="logo-error"[^>]*>Bitte wählen Sie eine Bilddatei aus/);
    expect(await logoCount(owner)).toBe(0);
    // Without the form's CSRF token the upload is refused before anything is read into the store.
    await browser.post('/settings/shipping/logo').attach('logo', makePng(4, 4), 'logo.png').expect(403);
    expect(await logoCount(owner)).toBe(0);
  });

  it('saves the company’s name, time zone and contact e-mail; the header shows the new name', async () => {
    const page = await browser.get('/settings/company').expect(200);
    expect(page.text).toContain('<option value="Europe/Berlin" selected>');
    const bad = await post(browser, '/settings/company', { name: '', time_zone: 'Mars/Olympus', contact_email: 'nein' }, 422);
    expect(bad.text).toMatch(/id="name-error"/);
    expect(bad.text).toMatch(/id="time_zone-error"[^>]*>time_zone must be an IANA time zone/);
    expect(bad.text).toMatch(/id="contact_email-error"/);
    expect(await companyRow(owner)).toEqual({ name: 'Einstellungs GmbH', time_zone: 'Europe/Berlin', contact_email: null });
    const other = await registerUser(t.app, 'Andere GmbH');
    const saved = await post(
      browser,
      '/settings/company',
      {
        name: 'Neuer Name AG',
        time_zone: 'America/New_York',
        contact_email: 'kontakt@neuer-name.de',
      },
      303,
    );
    expect(saved.headers.location).toBe('/settings/company?done=saved');
    const after = await browser.get(saved.headers.location).expect(200);
    expect(after.text).toContain('Neuer Name AG');
    expect(after.text).toContain('<option value="America/New_York" selected>');
    expect(await companyRow(owner)).toEqual({
      name: 'Neuer Name AG',
      time_zone: 'America/New_York',
      contact_email: 'kontakt@neuer-name.de',
    });
    expect(await companyRow(other)).toEqual({ name: 'Andere GmbH', time_zone: 'Europe/Berlin', contact_email: null });
    // Empty contact e-mail clears it.
    await post(browser, '/settings/company', { name: 'Neuer Name AG', time_zone: 'UTC', contact_email: '' }, 303);
    expect(await companyRow(owner)).toMatchObject({ time_zone: 'UTC', contact_email: null });
  });

  it('answers a member with the 403 page on every GET and POST, and changes nothing', async () => {
    await upload(browser, makePng(10, 10), 'logo.png', 303);
    const member = await signedIn(await addUser(t.app, owner, 'member'));
    const settings = await api(owner).settings();
    for (const path of ['/settings/shipping', '/settings/company', '/settings/shipping/logo']) {
      const res = await member.get(path).expect(403);
      expect(res.text).toContain('Inhaber');
    }
    await post(member, '/settings/shipping', { sender_city: 'Mitgliedshausen', shipping_mode: 'post' }, 403);
    await post(member, '/settings/company', { name: 'Übernommen', time_zone: 'UTC' }, 403);
    await post(member, '/settings/shipping/logo/remove', {}, 403);
    await upload(member, makePng(20, 20), 'anderes.png', 403);
    expect(await api(owner).settings()).toEqual(settings);
    expect(await companyRow(owner)).toMatchObject({ name: 'Einstellungs GmbH', time_zone: 'Europe/Berlin' });
    expect(await logoCount(owner)).toBe(1);
    expect(Buffer.compare((await browser.get('/settings/shipping/logo').expect(200)).body as Buffer, makePng(10, 10))).toBe(0);
  });

  it('keeps each company’s settings and logo to itself', async () => {
    const other = await registerUser(t.app, 'Andere GmbH');
    const otherBrowser = await signedIn(other);
    await upload(browser, makePng(10, 10), 'logo.png', 303);
    await post(browser, '/settings/shipping', { sender_city: 'Berlin' }, 303);
    await otherBrowser.get('/settings/shipping/logo').expect(404);
    expect((await otherBrowser.get('/settings/shipping').expect(200)).text).not.toContain('src="/settings/shipping/logo"');
    expect((await api(other).settings()).sender_city).toBeNull();
    expect(await logoCount(other)).toBe(0);
  });
});
