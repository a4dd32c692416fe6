// The dashboard's "needs you" counters and the web app's error pages, over HTTP: each counter equals
// what the API lists for the company (and only for it); a browser gets HTML error pages, every API
// client the problem documents exactly as before.
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import request from 'supertest';
import { todayIn } from '../../src/common/calendar-date.js';
import { ShippingService } from '../../src/shipping/shipments/shipping.service.js';
import { NeedsYouRepository } from '../../src/web/dashboard/needs-you.repository.js';
import { invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { countsOfTheApi, countsOnThePage, seedNeedsYou } from './dashboard-seed.js';
import { registerUser, signIn } from './web-support.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? '';

describe('dashboard counters and error pages (HTTP)', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-dashboard'));
  const agent = () => request.agent(t.app.getHttpServer());
  afterEach(() => jest.restoreAllMocks());

  it('counts what needs the user exactly as the API lists it, for their company only', async () => {
    const owner = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const expected = await seedNeedsYou(t.app, owner.company);
    const today = todayIn('Europe/Berlin');
    await expect(countsOfTheApi(t.app, owner.company, today)).resolves.toEqual(expected);

    const browser = agent();
    await signIn(browser, owner.email);
    const page = await browser.get('/dashboard').expect(200);
    expect(countsOnThePage(page.text)).toEqual(expected);
    expect(page.text).toContain('Zu erledigen');
    expect(page.text).toMatch(
      /data-needs="shipments"><th scope="row"><a href="\/exceptions\/shipments">Sendungen mit Handlungsbedarf<\/a>/,
    );
    expect(page.text).toMatch(/data-needs="approvals"><th scope="row"><a href="\/dunning">/);
    expect(page.text).toMatch(/data-needs="deadLetters"><th scope="row"><a href="\/push\/dead-letters">/);
    expect(page.text).toMatch(/data-needs="blocked"><th scope="row"><a href="\/exceptions\/blocked">/);
    expect(page.text).toMatch(/data-needs="failedPulls"><th scope="row"><a href="\/exceptions\/erp-pulls">Fehlgeschlagene ERP-Abrufe<\/a>/);

    // The stranger's company has none of it: every counter says there is nothing to do.
    const other = agent();
    await signIn(other, stranger.email);
    const empty = await other.get('/dashboard').expect(200);
    expect(countsOnThePage(empty.text)).toEqual({ shipments: 0, approvals: 0, deadLetters: 0, failedPulls: 0, blocked: 0 });
    expect(empty.text.match(/>nichts zu tun</g)).toHaveLength(5);
    await expect(countsOfTheApi(t.app, stranger.company, today)).resolves.toEqual(countsOnThePage(empty.text));

    // Seeded for the stranger as well, the owner's figures stay as they were.
    await seedNeedsYou(t.app, stranger.company);
    expect(countsOnThePage((await browser.get('/dashboard').expect(200)).text)).toEqual(expected);
  });

  it('answers a browser at an unknown path with the 404 page, with the navigation of a signed-in user', async () => {
    const anonymous = await t.http.get('/no/such/page').set('Accept', BROWSER).expect(404);
    expect(anonymous.headers['content-type']).toMatch(/^text\/html/);
    expect(anonymous.headers['content-security-policy']).toContain("script-src 'self'");
    expect(main(anonymous.text)).toContain('Seite nicht gefunden');
    expect(anonymous.text).not.toContain('Abmelden');

    const { email, company } = await registerUser(t.app, 'Navigations GmbH');
    const browser = agent();
    await signIn(browser, email);
    const signedIn = await browser.get('/rechnungen/alt?x=1').set('Accept', BROWSER).expect(404);
    expect(main(signedIn.text)).toContain('Seite nicht gefunden');
    expect(signedIn.text).toContain('Abmelden');
    expect(signedIn.text).toContain(company.name);
    // The same page as an unknown record inside the app.
    const record = await browser.get('/invoices/inv-00000000-0000-0000-0000-000000000000').expect(404);
    expect(main(signedIn.text)).toBe(main(record.text));
    // A form posted to an unknown path: the 404 page as well.
    await browser.post('/nowhere').set('Accept', BROWSER).type('form').send({ a: '1' }).expect(404);
  });

  it('keeps the problem documents for API paths and API clients exactly as before', async () => {
    const { company } = await registerUser(t.app);
    const expectProblem = (res: request.Response, status: number, code: string) => {
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status, code, type: `urn:receivables:problem:${code}` });
      expect(res.body.request_id).toBe(res.headers['x-request-id']);
    };
    // curl's */*, no Accept at all, JSON asked for, and a browser's Accept with a credential.
    expectProblem(await t.http.get('/no/such/page').expect(404), 404, 'request.not_found');
    expectProblem(await t.http.get('/no/such/page').set('Accept', '*/*').expect(404), 404, 'request.not_found');
    expectProblem(await t.http.get('/no/such/page').set('Accept', 'application/json').expect(404), 404, 'request.not_found');
    expectProblem(await t.http.get('/dashboard/x').set('Accept', 'application/json').expect(404), 404, 'request.not_found');
    expectProblem(
      await t.http.get('/no/such/page').set('Accept', BROWSER).set('Authorization', company.auth).expect(404),
      404,
      'request.not_found',
    );
    // The API's own paths, even for a browser.
    for (const path of ['/api/v1/nothing', '/v2/nothing', '/oauth/nothing', '/health/nothing']) {
      expectProblem(await t.http.get(path).set('Accept', BROWSER).expect(404), 404, 'request.not_found');
    }
    const unauthenticated = await t.http.get('/api/v1/invoices').set('Accept', BROWSER).expect(401);
    expectProblem(unauthenticated, 401, 'auth.missing_credential');
  });

  it('answers an unexpected error on a web page with a 500 page and the request id it was logged under', async () => {
    const { email, company } = await registerUser(t.app);
    const browser = agent();
    await signIn(browser, email);
    const logged = jest.spyOn(Logger.prototype, 'error');
    const secret = 'connection to 10.0.0.7 refused at Secret.stack';
    jest.spyOn(t.app.get(NeedsYouRepository), 'counts').mockRejectedValueOnce(new Error(secret));
    const failed = await browser.get('/dashboard').expect(500);
    expect(failed.headers['content-type']).toMatch(/^text\/html/);
    expect(failed.headers['cache-control']).toBe('no-store');
    const requestId = failed.headers['x-request-id'];
    expect(requestId).toBeTruthy();
    expect(main(failed.text)).toContain('Ein Fehler ist aufgetreten');
    expect(failed.text).toContain(`data-request-id="${requestId}"`);
    expect(failed.text).toContain(`Vorgangsnummer für Rückfragen: ${requestId}`);
    expect(failed.text).not.toContain(secret);
    expect(failed.text).not.toMatch(/\bat \S+ \(/);
    // Still signed in: the page has the user's navigation; and the error was logged as before.
    expect(failed.text).toContain('Abmelden');
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ err: expect.objectContaining({ message: secret }) }), 'unhandled error');
    await browser.get('/dashboard').expect(200);

    // The same kind of failure behind the API: the problem document as before, for a browser's Accept too.
    jest.spyOn(t.app.get(ShippingService), 'needingAttention').mockRejectedValueOnce(new Error(secret));
    const api = await t.http.get('/api/v1/shipments/attention').set('Authorization', company.auth).set('Accept', BROWSER).expect(500);
    expect(api.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(api.body).toMatchObject({
      status: 500,
      code: 'internal',
      detail: 'An internal error occurred; it has been logged with the request id',
    });
    expect(api.text).not.toContain(secret);
  });
});
