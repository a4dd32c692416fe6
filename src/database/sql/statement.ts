// Every SQL statement a repository runs (beyond TypeORM's single-row repository calls) is declared once
// here, by name: the name is its prepared-statement name on every connection, the key of its block in
// the committed `sql/*.sql` files (written by test/database/sql-files.e2e-spec.ts), and what a reviewer
// searches for. Statements whose text depends on a value (a filter combination, a policy's day count)
// are families: one declaration, a text per variant, and examples that the SQL files show.

export type PlanMode =
  /** Prepared once per connection under the statement's name and then only bound (PostgreSQL may keep a generic plan). */
  | 'prepared'
  /**
   * Sent unnamed, so PostgreSQL plans it with the actual values and the tables' current statistics each
   * time: for set-based batch work over tables that grow in a burst (a generic plan made while the push
   * queue was nearly empty stayed a sequential scan per batch until the next autoanalyze).
   */
  | 'custom';

export interface StatementOptions {
  plan?: PlanMode;
  /**
   * Why this statement may read or write rows of every company (sweepers, schedulers, queues that
   * claim across tenants). Without it, the SQL-file check demands a company_id condition for every
   * tenant table the statement names.
   */
  crossTenant?: string;
}

/** A declared statement; `Row` is the shape of one returned row. */
export interface Statement<Row = unknown> {
  readonly name: string;
  readonly text: string;
  readonly plan: PlanMode;
  readonly crossTenant: string | null;
  /** Never set: carries the row type. */
  readonly row?: Row;
}

/** What the SQL files show of a declaration: its name and the text of each variant. */
export interface Declaration {
  name: string;
  crossTenant: string | null;
  texts: () => string[];
}

const declarations = new Map<string, Declaration>();
const NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

function declare(declaration: Declaration): void {
  if (!NAME.test(declaration.name)) throw new Error(`A statement name is <area>.<purpose> in snake case: ${declaration.name}`);
  if (declarations.has(declaration.name)) throw new Error(`The statement ${declaration.name} is declared twice`);
  declarations.set(declaration.name, declaration);
}

/**
 * Declares one statement. `text` may be a function (evaluated once, on first use) when it is composed
 * from other declarations, such as an entity's column list.
 */
export function statement<Row = unknown>(name: string, text: string | (() => string), options: StatementOptions = {}): Statement<Row> {
  let resolved: string | undefined;
  const textOf = () => (resolved ??= typeof text === 'function' ? text() : text);
  declare({ name, crossTenant: options.crossTenant ?? null, texts: () => [textOf()] });
  return {
    name,
    get text() {
      return textOf();
    },
    plan: options.plan ?? 'prepared',
    crossTenant: options.crossTenant ?? null,
  };
}

/**
 * Declares a family of statements whose text is built from a variant (never from user input: the
 * variant's values are enums, checked numbers or counts; the user's values travel as parameters).
 * Each distinct text becomes its own prepared statement, named `<name>_<n>` in the order first used.
 * `examples` are the variants the SQL files show; they should cover every branch of `build`. A variant is
 * plain data (a value, or an object of strings, numbers and booleans): equal JSON, equal variant.
 */
export function statementFamily<Variant, Row = unknown>(
  name: string,
  build: (variant: Variant) => string,
  examples: readonly Variant[],
  options: StatementOptions = {},
): (variant: Variant) => Statement<Row> {
  if (examples.length === 0) throw new Error(`The statement family ${name} needs at least one example`);
  declare({ name, crossTenant: options.crossTenant ?? null, texts: () => examples.map(build) });
  const byText = new Map<string, Statement<Row>>();
  // The text is built once per variant, not per call: a view's text is kilobytes composed from entity
  // metadata, and building it on every request cost an invoices page 130 µs of CPU and its garbage
  // (profile of the invoices-read bench, 2026-11-27). Variants are few (enums, flags, counts).
  const byVariant = new Map<unknown, Statement<Row>>();
  return (variant) => {
    const key = typeof variant === 'object' && variant !== null ? JSON.stringify(variant) : variant;
    let found = byVariant.get(key);
    if (found) return found;
    const text = build(variant);
    found = byText.get(text);
    if (!found) {
      found = { name: `${name}_${byText.size + 1}`, text, plan: options.plan ?? 'prepared', crossTenant: options.crossTenant ?? null };
      byText.set(text, found);
    }
    byVariant.set(key, found);
    return found;
  };
}

/** Every declaration made so far (the modules that declare them must have been imported). */
export function declaredStatements(): Declaration[] {
  return [...declarations.values()].sort((a, b) => a.name.localeCompare(b.name));
}
