// The optional filters of a page as the variant of a statement family: which filters are set (in a
// fixed order, so there are at most 2^n texts) decides the text, their values travel as parameters.

/** The keys of the set filters, in the order of `conditions`, and their values. */
export function setFilters<Key extends string>(conditions: Record<Key, string>, filters: Partial<Record<Key, unknown>>): { keys: Key[]; values: unknown[] } {
  const keys = (Object.keys(conditions) as Key[]).filter((key) => filters[key]);
  return { keys, values: keys.map((key) => filters[key]) };
}

/** `first AND …` with each condition's `?` numbered from $2 (the company is $1); then LIMIT and OFFSET. */
export function pageWhere<Key extends string>(conditions: Record<Key, string>, keys: readonly Key[], first: string): { where: string; limit: string } {
  const where = [first, ...keys.map((key, i) => conditions[key].replace('?', `$${i + 2}`))].join(' AND ');
  return { where, limit: `LIMIT $${keys.length + 2} OFFSET $${keys.length + 3}` };
}
