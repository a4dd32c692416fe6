import { classifySmtpError, MailError } from './mail-errors.js';

describe(classifySmtpError.name, () => {
  it.each([
    ['550 recipient rejected', { responseCode: 550, code: 'EENVELOPE' }, true],
    ['554 transaction failed', { responseCode: 554, code: 'EMESSAGE' }, true],
    ['421 service not available', { responseCode: 421, code: 'ECONNECTION' }, false],
    ['451 local error', { responseCode: 451, code: 'EENVELOPE' }, false],
    ['452 insufficient storage', { responseCode: 452 }, false],
    ['timeout without reply', { code: 'ETIMEDOUT' }, false],
    ['connection refused', { code: 'ECONNECTION' }, false],
    ['DNS failure', { code: 'EDNS' }, false],
    ['no recipients (API)', { code: 'EENVELOPE' }, true],
    ['something unknown', { code: 'EWHATEVER' }, false],
    ['a plain Error', new Error('boom'), false],
  ])('%s → permanent: %s', (_name, error, permanent) => {
    const classified = classifySmtpError(Object.assign(new Error('x'), error));
    expect(classified).toBeInstanceOf(MailError);
    expect(classified.permanent).toBe(permanent);
  });

  it('keeps a MailError as it is', () => {
    const error = new MailError('not configured', true);
    expect(classifySmtpError(error)).toBe(error);
  });
});

describe('the message of a classified error', () => {
  it('names the code of a network error that its text does not', () => {
    expect(classifySmtpError(Object.assign(new Error('Greeting never received'), { code: 'ETIMEDOUT' })).message).toBe(
      'Greeting never received (ETIMEDOUT)',
    );
    expect(classifySmtpError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ESOCKET' })).message).toBe(
      'connect ECONNREFUSED 127.0.0.1:1 (ESOCKET)',
    );
    expect(classifySmtpError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })).message).toBe(
      'connect ECONNREFUSED 127.0.0.1:1',
    );
  });
});
