/** The entries whose value is not undefined: a PATCH changes only what the request names. */
export function defined<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
