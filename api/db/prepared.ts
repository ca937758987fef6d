import { Param, sql, type Column } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * A statement every page view sends, built once per database and kept prepared: drizzle makes its
 * SQL once instead of at every call, and PostgreSQL parses it once per connection (the name). Its
 * values come as `sql.placeholder`s at each call. A statement on a transaction is built for it
 * alone and runs on its connection, as an unprepared one would.
 */
export function preparedStatement<T>(
  name: string,
  build: (database: Database, name: string) => T,
): (database: Database) => T {
  const built = new WeakMap<Database, T>();
  return (database) => {
    let statement = built.get(database);
    if (statement === undefined) {
      statement = build(database, name);
      built.set(database, statement);
    }
    return statement;
  };
}

/**
 * A statement of a few shapes (which filters a list has, say), each prepared as by
 * {@link preparedStatement}, under a name of its own: `<name>_<n>`, numbered in the order the
 * shapes are first asked for. The same shape always gets the same name and text in a process.
 */
export function preparedStatements<Shape, T>(
  name: string,
  keyOf: (shape: Shape) => string,
  build: (database: Database, shape: Shape, name: string) => T,
): (database: Database, shape: Shape) => T {
  const names = new Map<string, string>();
  const built = new WeakMap<Database, Map<string, T>>();
  return (database, shape) => {
    const key = keyOf(shape);
    let ofDatabase = built.get(database);
    if (!ofDatabase) {
      ofDatabase = new Map();
      built.set(database, ofDatabase);
    }
    let statement = ofDatabase.get(key);
    if (statement === undefined) {
      let shapeName = names.get(key);
      if (shapeName === undefined) {
        shapeName = `${name}_${names.size + 1}`;
        names.set(key, shapeName);
      }
      statement = build(database, shape, shapeName);
      ofDatabase.set(key, statement);
    }
    return statement;
  };
}

/**
 * A placeholder for a value of `column`, sent as the column sends its values (a Date as its ISO
 * text), where a bare `sql.placeholder` would hand the driver the value as it is.
 */
export function placeholderFor(name: string, column: Column): Param {
  return new Param(sql.placeholder(name), column);
}
