// TypeORM answers an UPDATE or DELETE through query() as [rows, affected count], other statements as
// the rows: the rows RETURNING gave, whatever the statement was.
export function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
