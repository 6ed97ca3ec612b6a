// SQLite's result code names (sqlite3.h) on node:sqlite's errors, whose code is ERR_SQLITE_ERROR
// with a numeric errcode: the mirror's messages test the `SQLITE_*` code better-sqlite3 gives.

const PRIMARY_CODES = (
  'OK ERROR INTERNAL PERM ABORT BUSY LOCKED NOMEM READONLY INTERRUPT IOERR CORRUPT NOTFOUND FULL ' +
  'CANTOPEN PROTOCOL EMPTY SCHEMA TOOBIG CONSTRAINT MISMATCH MISUSE NOLFS AUTH FORMAT RANGE NOTADB'
).split(' ');
const EXTENDED_CODES: Record<number, string> = Object.fromEntries(
  Object.entries({
    BUSY_RECOVERY: 261,
    BUSY_SNAPSHOT: 517,
    BUSY_TIMEOUT: 773,
    READONLY_RECOVERY: 264,
    READONLY_CANTLOCK: 520,
    READONLY_ROLLBACK: 776,
    READONLY_DBMOVED: 1032,
    CORRUPT_VTAB: 267,
    CONSTRAINT_CHECK: 275,
    CONSTRAINT_COMMITHOOK: 531,
    CONSTRAINT_FOREIGNKEY: 787,
    CONSTRAINT_FUNCTION: 1043,
    CONSTRAINT_NOTNULL: 1299,
    CONSTRAINT_PRIMARYKEY: 1555,
    CONSTRAINT_TRIGGER: 1811,
    CONSTRAINT_UNIQUE: 2067,
    CONSTRAINT_VTAB: 2323,
    CONSTRAINT_ROWID: 2579,
    CANTOPEN_ISDIR: 526,
    CANTOPEN_FULLPATH: 782,
  }).map(([name, code]) => [code, name]),
);

function withSqliteCode(err: unknown): unknown {
  const e = err as { code?: unknown; errcode?: unknown };
  if (e && typeof e === 'object' && e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const name = EXTENDED_CODES[e.errcode] ?? PRIMARY_CODES[e.errcode & 0xff];
    if (name !== undefined) e.code = `SQLITE_${name}`;
  }
  return err;
}

export function sqliteCall<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw withSqliteCode(err);
  }
}

export function* sqliteRows<Row>(rows: IterableIterator<unknown>): Generator<Row> {
  try {
    yield* rows as IterableIterator<Row>;
  } catch (err) {
    throw withSqliteCode(err);
  }
}

/** SQLite's error code name ("SQLITE_NOTADB", "SQLITE_READONLY", ...) of a driver error. */
export function sqliteErrorCode(err: unknown): string | undefined {
  if (err && typeof err === 'object' && 'code' in err) {
    withSqliteCode(err);
    const code = (err as { code: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
  }
  return undefined;
}
