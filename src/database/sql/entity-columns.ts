// The SELECT list of an entity, each column aliased to its property name, so that pg's rows come back in
// the entity's shape: hot reads need no query builder and no hydration step (TypeORM's builder and
// hydration cost more CPU than the rest of a customers GET together). The columns come from the
// entity's decorators (TypeORM's metadata arguments), so a declared statement can use them before any
// DataSource exists. Only for entities of plain columns without transformers whose types pg returns as
// TypeORM does (text, uuid, boolean, smallint, timestamptz, numeric as string, jsonb) — the service's.
import { getMetadataArgsStorage } from 'typeorm';

export function entityColumns(entity: abstract new () => object, tableAlias?: string): string {
  const prefix = tableAlias ? `${tableAlias}.` : '';
  const columns = getMetadataArgsStorage().filterColumns(entity);
  if (columns.length === 0) throw new Error(`${entity.name} has no columns: is it an entity?`);
  return columns.map((c) => `${prefix}"${c.options.name ?? c.propertyName}" AS "${c.propertyName}"`).join(', ');
}
