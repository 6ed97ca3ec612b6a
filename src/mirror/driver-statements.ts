// The prepared statements a connection keeps for reuse, whichever driver prepares them: neither
// better-sqlite3's Database#prepare nor node:sqlite's DatabaseSync#prepare caches (node:sqlite's
// only cache, createTagStore() from 24.9, serves tagged templates), and a long-lived connection
// (`mtg mcp`) prepares the same few statements on every call: preparing costs more than a small
// query, and a driver frees a statement only when V8 collects its object, which V8 does not see the
// native memory of (RSS grew by thousands of statements waiting for a GC). Each driver's prepare()
// (driver.ts, driver-node-sqlite.ts) takes its statement from here: every caller just calls
// db.prepare(sql), as often as it likes.

/** Prepared statements a connection keeps (the least recently used is dropped beyond them). */
export const STATEMENT_CACHE_SIZE = 64;

/**
 * One connection's statements by SQL text, least recently used first. A statement dropped, or
 * left when the connection closes, is finalized by its driver (when its object is collected, or
 * at the close: both drivers finalize a connection's statements there).
 */
export class StatementCache<S extends object> {
  private readonly cache = new Map<string, S>();
  /** Cached statements an unfinished iterate() is stepping through. */
  private readonly iterating = new Set<S>();

  constructor(
    /** A new statement of this text (throws what the driver throws for bad SQL). */
    private readonly prepare: (sql: string) => S,
    private readonly size = STATEMENT_CACHE_SIZE,
  ) {}

  /** The cached statement of this text (now the most recently used), prepared when there is none. */
  shared(sql: string): S {
    let stmt = this.cache.get(sql);
    if (stmt) {
      this.cache.delete(sql); // to the end: the most recently used
    } else {
      stmt = this.prepare(sql);
      if (this.cache.size >= this.size) this.cache.delete(this.cache.keys().next().value as string);
    }
    this.cache.set(sql, stmt);
    return stmt;
  }

  /**
   * `shared`, or a statement of its own while another caller iterates it: a call would reset the
   * walk (node:sqlite) or be refused as busy (better-sqlite3).
   */
  ready(sql: string, shared: S): S {
    return this.iterating.has(shared) ? this.prepare(sql) : shared;
  }

  /** `rows` of `stmt`; a shared statement is marked busy until they end, fail, or the caller stops. */
  walk<Row>(stmt: S, shared: S, rows: IterableIterator<Row>): IterableIterator<Row> {
    if (stmt !== shared) return rows;
    this.iterating.add(stmt);
    return releasingRows(rows, () => this.iterating.delete(stmt));
  }

  /** Lets go of every statement (the connection is closing). */
  clear(): void {
    this.cache.clear();
    this.iterating.clear();
  }
}

/** `rows`, calling `release` once they end, fail, or the caller stops (return(), as `break` does). */
function releasingRows<Row>(rows: IterableIterator<Row>, release: () => void): IterableIterator<Row> {
  return {
    [Symbol.iterator]() {
      return this;
    },
    next() {
      try {
        const r = rows.next();
        if (r.done) release();
        return r;
      } catch (err) {
        release();
        throw err;
      }
    },
    return(value?: unknown) {
      release();
      return rows.return!(value);
    },
  } as IterableIterator<Row>;
}
