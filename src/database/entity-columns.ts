// The SELECT list of an entity, each column aliased to its property name, so that pg's rows come back
// in the entity's shape and hot reads need no query builder and no hydration step. TypeORM's metadata
// stays the one description of the columns. Only for entities without transformers whose column types
// pg returns as TypeORM does (text, uuid, boolean, smallint, timestamptz, numeric as string, jsonb).
import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

export function entityColumns(db: DataSource, entity: EntityTarget<ObjectLiteral>, tableAlias?: string): string {
  const prefix = tableAlias ? `${tableAlias}.` : '';
  return db
    .getMetadata(entity)
    .columns.map((column) => `${prefix}"${column.databaseName}" AS "${column.propertyName}"`)
    .join(', ');
}

/** A column list computed on first use (the metadata exists once the DataSource is initialized). */
export function lazyColumns(db: DataSource, entity: EntityTarget<ObjectLiteral>, tableAlias?: string): () => string {
  let columns: string | undefined;
  return () => (columns ??= entityColumns(db, entity, tableAlias));
}
