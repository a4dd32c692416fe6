/**
 * A statement pg prepares once per connection under `name` and then only binds: for the hot, repeated
 * statements of batch work, where parsing and planning each time is a noticeable share. TypeORM passes
 * the object through to pg as the query text.
 */
export const namedQuery = (name: string, text: string): string => ({ name, text }) as unknown as string;
