// PostgreSQL array literals for the pull's set-based writes. pg escapes array parameters element by
// element through its generic value preparation; a batch of thousands of rows in ten columns makes
// that a noticeable share of a pull's CPU. This writes the same literal directly: every text element
// quoted (so NULL, blanks, commas and braces are data), backslashes and quotes escaped.

const ESCAPED = /["\\]/g;

/** `{"a","b",NULL}`: for a `$n::text[]` (or `::date[]`, `::numeric[]`) parameter. */
export function textArray<T>(rows: readonly T[], value: (row: T) => string | null | undefined): string {
  let literal = '{';
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) literal += ',';
    const text = value(rows[i]);
    if (text === null || text === undefined) literal += 'NULL';
    else literal += `"${text.indexOf('"') === -1 && text.indexOf('\\') === -1 ? text : text.replace(ESCAPED, '\\$&')}"`;
  }
  return `${literal}}`;
}

/** `{1,2,NULL}`: for a `$n::int[]` parameter (finite numbers only). */
export function numberArray<T>(rows: readonly T[], value: (row: T) => number | null | undefined): string {
  let literal = '{';
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) literal += ',';
    const number = value(rows[i]);
    if (number === null || number === undefined) literal += 'NULL';
    else if (Number.isFinite(number)) literal += String(number);
    else throw new TypeError(`not a finite number: ${number}`);
  }
  return `${literal}}`;
}

/** `{t,f,NULL}`: for a `$n::bool[]` parameter. */
export function boolArray<T>(rows: readonly T[], value: (row: T) => boolean | null | undefined): string {
  let literal = '{';
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) literal += ',';
    const flag = value(rows[i]);
    literal += flag === null || flag === undefined ? 'NULL' : flag ? 't' : 'f';
  }
  return `${literal}}`;
}
