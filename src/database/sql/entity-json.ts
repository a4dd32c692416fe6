// An entity's rows as a JSON object per row, for a statement that returns a record with its children in
// one round trip (a customer with its contacts: json_agg of entityJson(Contact)). Each key is the
// property name, as entityColumns gives them; numeric travels as text (a JSON number would lose "12.50"
// to 12.5) and reviveEntity turns the timestamptz strings back into Dates, so a child comes out in the
// shape pg gives for a row of its own. Only for the column types listed in TYPES.
import { getMetadataArgsStorage } from 'typeorm';
import { readJsonTimestamp } from './fast-timestamps.js';

// date travels as 'YYYY-MM-DD' (JSON's ISO form), as TypeORM hands it out.
type ColumnType = 'text' | 'uuid' | 'boolean' | 'smallint' | 'integer' | 'char' | 'jsonb' | 'numeric' | 'date' | 'timestamptz';
const TYPES: ReadonlySet<string> = new Set<ColumnType>([
  'text',
  'uuid',
  'boolean',
  'smallint',
  'integer',
  'char',
  'jsonb',
  'numeric',
  'date',
  'timestamptz',
]);

function columnsOf(entity: abstract new () => object) {
  const columns = getMetadataArgsStorage().filterColumns(entity);
  if (columns.length === 0) throw new Error(`${entity.name} has no columns: is it an entity?`);
  return columns.map((c) => {
    const type = String(c.options.type);
    if (!TYPES.has(type)) throw new Error(`${entity.name}.${c.propertyName}: entityJson does not carry ${type} columns`);
    return { column: c.options.name ?? c.propertyName, property: c.propertyName, type };
  });
}

/** `json_build_object('property', alias."column", …)` of every column of the entity. */
export function entityJson(entity: abstract new () => object, tableAlias: string): string {
  const pairs = columnsOf(entity).map(({ column, property, type }) => {
    const value = `${tableAlias}."${column}"${type === 'numeric' ? '::text' : ''}`;
    return `'${property}', ${value}`;
  });
  return `json_build_object(${pairs.join(', ')})`;
}

/** Turns the parsed JSON objects of entityJson into the entity's shape (Dates for timestamptz), in place. */
export function entityReviver<T>(entity: abstract new () => T & object): (objects: unknown[]) => T[] {
  const dates = columnsOf(entity)
    .filter((c) => c.type === 'timestamptz')
    .map((c) => c.property);
  return (objects) => {
    for (const object of objects as Record<string, unknown>[])
      for (const key of dates) {
        const value = object[key];
        if (typeof value === 'string') object[key] = readJsonTimestamp(value);
      }
    return objects as T[];
  };
}
