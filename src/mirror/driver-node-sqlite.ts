// node:sqlite (Node.js 22.16 and newer) behind the `Db` interface of db.ts: the same calls and
// errors as better-sqlite3 gives (driver.ts), with the statements a long-lived connection reuses.

import { existsSync } from 'node:fs';
import { type Db, exactRowid, type OpenDbOptions, type SqlValue, type Statement } from './db.js';
import { StatementCache } from './driver-statements.js';
import { sqliteCall, sqliteRows } from './sqlite-codes.js';

// What mtg uses of node:sqlite (declared here: the project's @types/node is Node 20's, which has none).
interface NodeSqliteStatement {
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
  run(...params: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...params: SqlValue[]): IterableIterator<unknown>;
  columns(): { name: string }[];
  setReadBigInts(enabled: boolean): void;
  readonly sourceSQL: string;
}
interface NodeSqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeSqliteStatement;
  function(name: string, options: { deterministic: boolean }, fn: (...args: SqlValue[]) => SqlValue): void;
  close(): void;
  readonly isTransaction: boolean;
}
export interface NodeSqlite {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => NodeSqliteDatabase;
  StatementSync: { prototype: Partial<NodeSqliteStatement> };
}

// The opcodes by which SQLite's own sqlite3_stmt_readonly() calls a statement a writer
// (resolveP2Values in vdbeaux.c): node:sqlite does not expose the function, EXPLAIN shows them.
const WRITING_OPCODES = new Set(['Checkpoint', 'Vacuum', 'JournalMode']);

function statementWrites(raw: NodeSqliteDatabase, sql: string): boolean {
  if (/^\s*explain\b/i.test(sql)) return false;
  const program = raw.prepare(`EXPLAIN ${sql}`).all() as { opcode: string; p2: number }[];
  return program.some((op) => (op.opcode === 'Transaction' && op.p2 !== 0) || WRITING_OPCODES.has(op.opcode));
}

/** What follows the first statement, minus blanks, `;` and comments (better-sqlite3 refuses a second one). */
function hasSecondStatement(sql: string, first: string): boolean {
  const rest = sql.startsWith(first) ? sql.slice(first.length) : '';
  return rest.replace(/--[^\n]*|\/\*[\s\S]*?(\*\/|$)|[\s;]+/g, '') !== '';
}

/** One connection, the statements it keeps (driver-statements.ts), and what it knows of them. */
interface Connection {
  raw: NodeSqliteDatabase;
  statements: StatementCache<NodeSqliteStatement>;
  /** Whether a statement writes (EXPLAIN, asked once per statement). */
  writers: WeakMap<NodeSqliteStatement, boolean>;
}

/** A new statement of `sql`, refused when it holds a second one (as better-sqlite3 refuses it). */
function newStatement(raw: NodeSqliteDatabase, sql: string): NodeSqliteStatement {
  const stmt = sqliteCall(() => raw.prepare(sql));
  if (hasSecondStatement(sql, stmt.sourceSQL)) {
    throw new RangeError('The supplied SQL string contains more than one statement');
  }
  return stmt;
}

/** better-sqlite3's Statement over a cached node:sqlite statement of this connection. */
function prepareStatement<Row>(conn: Connection, sql: string): Statement<Row> {
  const { raw, statements, writers } = conn;
  const shared = statements.shared(sql);
  let bigInts = false;
  const ready = (): NodeSqliteStatement => {
    const s = statements.ready(sql, shared);
    // Shared by every prepare() of this text: each call sets its own integer mode.
    s.setReadBigInts(bigInts);
    return s;
  };
  const statement: Statement<Row> = {
    get: (...params) => sqliteCall(() => ready().get(...(params as SqlValue[])) as Row | undefined),
    all: (...params) => sqliteCall(() => ready().all(...(params as SqlValue[])) as Row[]),
    run: (...params) => {
      const s = ready();
      // BigInts for this call: node:sqlite throws on a rowid past 2^53 (mtg's passages use
      // such rowids; the connection's last one shows in every later run()).
      s.setReadBigInts(true);
      try {
        const r = sqliteCall(() => s.run(...(params as SqlValue[])));
        return { changes: Number(r.changes), lastInsertRowid: exactRowid(r.lastInsertRowid, bigInts) };
      } finally {
        s.setReadBigInts(bigInts);
      }
    },
    iterate: (...params) => {
      const s = ready();
      const rows = sqliteRows<Row>(
        sqliteCall(() => s.iterate(...(params as SqlValue[])) as IterableIterator<unknown>),
      );
      return statements.walk(s, shared, rows);
    },
    columns: () => shared.columns().map((c) => c.name),
    get readonly() {
      let writes = writers.get(shared);
      if (writes === undefined) {
        writes = sqliteCall(() => statementWrites(raw, sql));
        writers.set(shared, writes);
      }
      return !writes;
    },
    safeIntegers: () => {
      bigInts = true;
      return statement;
    },
  };
  return statement;
}

/**
 * `fn` in a transaction, as better-sqlite3's: a savepoint when a transaction is already open, so
 * an inner failure undoes only the inner part.
 */
function inTransaction<T>(raw: NodeSqliteDatabase, fn: () => T): T {
  const nested = raw.isTransaction;
  sqliteCall(() => raw.exec(nested ? 'SAVEPOINT mtg_tx' : 'BEGIN IMMEDIATE'));
  try {
    const result = fn();
    sqliteCall(() => raw.exec(nested ? 'RELEASE mtg_tx' : 'COMMIT'));
    return result;
  } catch (err) {
    // SQLite may have rolled back already (some errors end the transaction themselves).
    if (raw.isTransaction) raw.exec(nested ? 'ROLLBACK TO mtg_tx; RELEASE mtg_tx' : 'ROLLBACK');
    throw err;
  }
}

export function openNodeSqlite(sqlite: NodeSqlite, path: string, options: OpenDbOptions): Db {
  const readonly = options.readonly ?? false;
  if ((options.mustExist ?? readonly) && path !== ':memory:' && !existsSync(path)) {
    throw Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
  }
  const raw = sqliteCall(() => new sqlite.DatabaseSync(path, { readOnly: readonly }));
  // The `timeout` option came later in 22.x than the pragma.
  raw.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
  let open = true;
  const conn: Connection = {
    raw,
    statements: new StatementCache((sql) => newStatement(raw, sql)),
    writers: new WeakMap(),
  };
  return {
    path,
    readonly,
    exec(sql) {
      sqliteCall(() => raw.exec(sql));
    },
    prepare: <Row>(sql: string) => prepareStatement<Row>(conn, sql),
    transaction: <T>(fn: () => T) => inTransaction(raw, fn),
    pragma(source: string, simple: boolean = true): never {
      const stmt = sqliteCall(() => raw.prepare(`PRAGMA ${source}`));
      if (!simple) return sqliteCall(() => stmt.all()) as never;
      const row = sqliteCall(() => stmt.get()) as Record<string, unknown> | undefined;
      return (row === undefined ? undefined : Object.values(row)[0]) as never;
    },
    defineFunction(name, fn) {
      sqliteCall(() => raw.function(name, { deterministic: true }, fn));
    },
    close() {
      conn.statements.clear();
      if (open) raw.close();
      open = false;
    },
  };
}
