// Text that PostgreSQL stores as sent: no NUL character (text columns refuse it), and no unpaired UTF-16
// surrogate (a JSON "\ud800" would be stored as U+FFFD, so the answer would differ from the record).
// eslint-disable-next-line no-control-regex -- NUL is one of the characters this refuses
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}
