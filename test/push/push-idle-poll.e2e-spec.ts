// An idle worker's poll: it asks whether anything is due (one statement) and claims only then, and it
// still finds what no wake-up announced — a document another replica accepted.
import { setTimeout as sleep } from 'node:timers/promises';
import { jest } from '@jest/globals';
import { PushClaimsRepository } from '../../src/push/queue/push-claims.repository.js';
import { PushSignal } from '../../src/push/queue/push-signal.js';
import { apiKeyAuth, invoiceDocument, pushAccepted, quickPush, waitForStatus } from '../support/push.js';
import { useTestApp } from '../support/use-test-app.js';

describe('push: the idle worker', () => {
  const t = useTestApp(quickPush(), { company: true });
  afterEach(() => jest.restoreAllMocks());

  it('claims nothing while nothing is due, and finds a document no wake-up announced', async () => {
    const auth = apiKeyAuth(t.company.apiKey);
    await waitForStatus(t.app, auth, await pushAccepted(t.app, auth, invoiceDocument('RE-1', 'K-1')), ['processed']);
    const claims = t.app.get(PushClaimsRepository);
    const claim = jest.spyOn(claims, 'claim');
    const anyDue = jest.spyOn(claims, 'anyDue');
    await sleep(1_200); // some polls of every lane (every 250 ms)
    expect(anyDue.mock.calls.length).toBeGreaterThanOrEqual(4);
    expect(claim).not.toHaveBeenCalled();

    // Accepted as if by another replica: this process's worker is not woken, only its poll can find it.
    jest.spyOn(t.app.get(PushSignal), 'notify').mockImplementation(() => undefined);
    const id = await pushAccepted(t.app, auth, invoiceDocument('RE-2', 'K-1'));
    expect(await waitForStatus(t.app, auth, id, ['processed'])).toMatchObject({ attempts: 1 });
    expect(claim).toHaveBeenCalled();
  });
});
