import { dateLiteral, errorMessage, parsePayload, PayloadError, queryString, stringLiteral, v2Date } from './odata-wire.js';

describe('OData wire format', () => {
  describe('V2 dates', () => {
    const midnight = Date.parse('2026-01-31T00:00:00Z');

    it('reads /Date(ms)/ as UTC', () => {
      expect(v2Date(`/Date(${midnight})/`)).toBe('2026-01-31T00:00:00.000Z');
    });

    // Edm.DateTimeOffset: the milliseconds are UTC already; the offset only says where the value was
    // recorded. Applying it once more would move a date-only value to the day before or after.
    it.each(['+0000', '+0200', '+0530', '-0300', '-1200', '+1400'])('ignores the offset %s (the milliseconds are UTC)', (offset) => {
      expect(v2Date(`/Date(${midnight}${offset})/`)).toBe('2026-01-31T00:00:00.000Z');
      expect(v2Date(`/Date(${midnight + 13 * 3_600_000}${offset})/`)).toBe('2026-01-31T13:00:00.000Z');
    });

    it('reads dates before 1970 (negative milliseconds), also with an offset', () => {
      expect(v2Date('/Date(-86400000)/')).toBe('1969-12-31T00:00:00.000Z');
      expect(v2Date('/Date(-86400000-0500)/')).toBe('1969-12-31T00:00:00.000Z');
    });

    it('leaves anything else alone', () => {
      for (const text of ['/Date()/', '/Date(12a)/', '/Date(1+02)/', 'Date(1)', '/Date(1)/x', '/Date(99999999999999999999)/'])
        expect(v2Date(text)).toBeUndefined();
    });
  });

  describe('V2 payloads', () => {
    it('unwraps results, drops metadata and deferred navigation, converts dates, keeps decimals as text', () => {
      const body = JSON.stringify({
        d: {
          __count: '2',
          __next: 'https://erp.internal:44300/sap/X?$skiptoken=2',
          results: [
            {
              __metadata: { uri: 'x' },
              Amount: '1190.500',
              Posted: '/Date(1769817600000+0100)/',
              Cleared: null,
              to_Address: { results: [{ __metadata: {}, City: 'Berlin', to_Email: { results: [{ Email: 'a@b.example' }] } }] },
              to_Deferred: { __deferred: { uri: 'y' } },
            },
            { Amount: '5.000', Posted: '/Date(1769904000000)/' },
          ],
        },
      });
      const parsed = parsePayload('v2', body);
      expect(parsed).toEqual({
        count: 2,
        next: 'https://erp.internal:44300/sap/X?$skiptoken=2',
        records: [
          {
            Amount: '1190.500',
            Posted: '2026-01-31T00:00:00.000Z',
            Cleared: null,
            to_Address: [{ City: 'Berlin', to_Email: [{ Email: 'a@b.example' }] }],
          },
          { Amount: '5.000', Posted: '2026-02-01T00:00:00.000Z' },
        ],
      });
    });

    it('accepts a bare array under d and reads a missing or broken count as unknown', () => {
      expect(parsePayload('v2', '{"d":[{"A":1}]}')).toEqual({ records: [{ A: 1 }] });
      expect(parsePayload('v2', '{"d":{"results":[],"__count":"many"}}').count).toBeUndefined();
    });

    it('says what is wrong with an answer that is not a V2 collection', () => {
      expect(() => parsePayload('v2', '{"value":[]}')).toThrow(
        new PayloadError('not an OData V2 collection: expected {"d": {"results": [...]}}'),
      );
      expect(() => parsePayload('v2', '<html>Logon</html>')).toThrow(/^the response is not JSON \(starts with "<html>Logon<\/html>"\)$/);
    });
  });

  describe('V4 payloads', () => {
    it('reads value, @odata.count and @odata.nextLink, drops annotations, keeps ISO dates', () => {
      const body = JSON.stringify({
        '@odata.context': '$metadata#X',
        '@odata.count': 3,
        value: [{ '@odata.etag': 'W/"1"', Amount: '1.50', Day: '2026-01-31' }],
        '@odata.nextLink': 'X?$skiptoken=1',
      });
      expect(parsePayload('v4', body)).toEqual({ count: 3, next: 'X?$skiptoken=1', records: [{ Amount: '1.50', Day: '2026-01-31' }] });
      expect(() => parsePayload('v4', '{"d":{"results":[]}}')).toThrow(PayloadError);
    });
  });

  describe('queries', () => {
    it('V2: $select with $expand of every navigation path, the filter percent-encoded, count as $inlinecount', () => {
      const text = queryString('v2', {
        select: ['Customer', 'to_Address/City', 'to_Address/to_Email/Email'],
        filter: "Customer ne '' and Name eq 'A&B'",
        orderby: ['Customer'],
        top: 5000,
        skip: 10,
        count: true,
      });
      expect(text).toBe(
        "$select=Customer,to_Address/City,to_Address/to_Email/Email&$expand=to_Address,to_Address/to_Email&$filter=Customer%20ne%20''%20and%20Name%20eq%20'A%26B'&$orderby=Customer&$top=5000&$skip=10&$inlinecount=allpages",
      );
    });

    it('V4: nested $select inside $expand, count as $count', () => {
      expect(queryString('v4', { select: ['Customer', 'to_Address/City'], count: true })).toBe(
        '$select=Customer&$expand=to_Address(%24select%3DCity)&$count=true',
      );
    });

    it('date and string literals', () => {
      expect(dateLiteral('v2', '2026-01-31')).toBe("datetime'2026-01-31T00:00:00'");
      expect(dateLiteral('v4', '2026-01-31')).toBe('2026-01-31');
      expect(stringLiteral("O'Brien")).toBe("'O''Brien'");
    });
  });

  it('reads the human part of V2 and V4 error bodies, and of HTML error pages', () => {
    expect(errorMessage(JSON.stringify({ error: { code: 'CX_AUTH', message: { lang: 'en', value: 'No authorization' } } }))).toBe(
      'CX_AUTH: No authorization',
    );
    expect(errorMessage(JSON.stringify({ error: { code: '400', message: 'Bad filter' } }))).toBe('400: Bad filter');
    expect(errorMessage('<html><body><h1>502</h1> Bad   gateway</body></html>')).toBe('502 Bad gateway');
    expect(errorMessage('{"ok":true}')).toBeUndefined();
  });
});
