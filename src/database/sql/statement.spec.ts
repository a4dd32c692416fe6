import { statementFamily } from './statement.js';

describe('statementFamily', () => {
  it('builds the text once per variant and answers the same statement for an equal variant', () => {
    let builds = 0;
    const family = statementFamily<{ status: boolean; limit: number }>(
      'spec.family_once',
      (v) => {
        builds++;
        return `SELECT 1 FROM t WHERE ${v.status ? 'status = $2' : 'true'} LIMIT ${v.limit}`;
      },
      [{ status: true, limit: 1 }],
    );
    const first = family({ status: true, limit: 5 });
    const again = family({ status: true, limit: 5 });
    expect(again).toBe(first);
    expect(builds).toBe(1);
    const other = family({ status: false, limit: 5 });
    expect(other.name).not.toBe(first.name);
    expect(other.text).toBe('SELECT 1 FROM t WHERE true LIMIT 5');
    expect(builds).toBe(2);
  });

  it('gives variants with the same text one prepared statement', () => {
    const family = statementFamily<'a' | 'b' | 'c'>('spec.family_shared', (v) => (v === 'c' ? 'SELECT 2' : 'SELECT 1'), ['a', 'c']);
    expect(family('b')).toBe(family('a'));
    expect(family('c').name).toBe('spec.family_shared_2');
    expect(family('a').name).toBe('spec.family_shared_1');
  });
});
