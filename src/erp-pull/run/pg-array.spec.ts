import { boolArray, numberArray, textArray } from './pg-array.js';

describe('PostgreSQL array literals', () => {
  it('quotes every text element, escapes quotes and backslashes, writes NULL for null', () => {
    expect(textArray(['a', '', 'NULL', 'x,y', '{z}', 'say "hi"', 'back\\slash', null, undefined, ' pad '], (v) => v)).toBe(
      '{"a","","NULL","x,y","{z}","say \\"hi\\"","back\\\\slash",NULL,NULL," pad "}',
    );
  });

  it('writes numbers and flags unquoted', () => {
    expect(numberArray([1, 0, -3, null], (v) => v)).toBe('{1,0,-3,NULL}');
    expect(boolArray([true, false, null], (v) => v)).toBe('{t,f,NULL}');
    expect(textArray([], (v: string) => v)).toBe('{}');
    expect(() => numberArray([Number.NaN], (v) => v)).toThrow(TypeError);
  });
});
