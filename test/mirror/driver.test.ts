// The SQLite driver behind the mirror: the one this Node.js allows (node:sqlite from 22.16, else
// better-sqlite3), the same behaviour from either (the matrix runs this file on every line), a
// driver that cannot load as one line with its fix. An install whose driver cannot load, and mirror
// commands silent on stderr (node's own warnings): test/e2e/sqlite-driver.test.ts.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  type DriverName,
  driverLoadError,
  driverName,
  loadDriver,
  openDb,
  requireDriver,
  sqliteErrorCode,
} from '../../src/mirror/driver.js';
import { ExitCode } from '../../src/shared/errors.js';
import { tempDir } from '../helpers/temp.js';

const requireHere = createRequire(import.meta.url);

/** node:sqlite unflagged from 22.13, but with FTS5 and columns() only from 22.16 (23.11 on 23). */
function allowedDriver(version: string): DriverName {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const complete = major >= 24 || (major === 23 && minor >= 11) || (major === 22 && minor >= 16);
  return complete ? 'node:sqlite' : 'better-sqlite3';
}

describe('the driver this Node.js allows', () => {
  it(`is ${allowedDriver(process.versions.node)} on Node.js ${process.versions.node}`, () => {
    expect(loadDriver(requireDriver, {}).name).toBe(allowedDriver(process.versions.node));
    expect(driverName()).toBe(allowedDriver(process.versions.node));
  });

  it('MTG_SQLITE_DRIVER picks one, and a wrong name is a usage error', () => {
    const loads: string[] = [];
    const loader = (name: DriverName) => {
      loads.push(name);
      return requireDriver(name);
    };
    if (allowedDriver(process.versions.node) === 'node:sqlite') {
      expect(loadDriver(loader, { MTG_SQLITE_DRIVER: 'node:sqlite' }).name).toBe('node:sqlite');
      expect(loads).toEqual(['node:sqlite']);
    } else {
      expect(() => loadDriver(loader, { MTG_SQLITE_DRIVER: 'node:sqlite' })).toThrow(
        /node:sqlite\) cannot load: Node\.js v\S+ has no complete node:sqlite; upgrade Node\.js to 22\.16/,
      );
    }
    expect(() => loadDriver(loader, { MTG_SQLITE_DRIVER: 'sqlite3' })).toThrow(
      expect.objectContaining({ exitCode: ExitCode.usage }),
    );
  });

  it('loading node:sqlite holds back only its own warning: every other one reaches the listeners, which are as they were after it', async () => {
    // The ticks of an earlier test's load run first (a listener added while they wait sees them).
    await new Promise((resolve) => setImmediate(resolve));
    const emitWarning = process.emitWarning;
    const seen: string[] = [];
    const mine = (warning: Error) => seen.push(`${warning.name}: ${warning.message}`);
    process.on('warning', mine);
    const before = process.listeners('warning');
    try {
      try {
        requireDriver('node:sqlite');
      } catch {
        // Node 20: no node:sqlite; the point is what happens to the warnings.
      }
      process.emitWarning('not about SQLite', 'ExperimentalWarning');
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toEqual(['ExperimentalWarning: not about SQLite']);
      expect(process.listeners('warning')).toEqual(before);
      expect(process.emitWarning).toBe(emitWarning);
    } finally {
      process.off('warning', mine);
    }
  });
});

describe('the same behaviour from either driver', () => {
  const path = () => join(tempDir('mtg-driver-'), 'test.db');

  it('readonly, columns and rows as SQLite defines them', () => {
    const db = openDb(path());
    try {
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE)');
      const cases: [string, boolean][] = [
        ['SELECT * FROM t', true],
        ['WITH x AS (SELECT 1 AS a) SELECT a FROM x', true],
        ['PRAGMA user_version', true],
        ['EXPLAIN QUERY PLAN SELECT * FROM t', true],
        ['BEGIN', true],
        ["INSERT INTO t(name) VALUES ('a')", false],
        ['UPDATE t SET name = name', false],
        ['DELETE FROM t', false],
        ['CREATE TABLE u (x)', false],
        ['DROP TABLE t', false],
        ['PRAGMA user_version = 3', false],
        ['VACUUM', false],
      ];
      expect(cases.map(([sql]) => [sql, db.prepare(sql).readonly])).toEqual(cases);
      expect(db.prepare('SELECT id, name AS label FROM t').columns()).toEqual(['id', 'label']);
      expect(db.prepare("INSERT INTO t(name) VALUES ('a')").columns()).toEqual([]);
      const ins = db.prepare('INSERT INTO t(name) VALUES (?)');
      expect(ins.run('x')).toEqual({ changes: 1, lastInsertRowid: 1 });
      expect(db.prepare('SELECT name FROM t WHERE id = :id').get({ id: 1 })).toEqual({ name: 'x' });
      expect([...db.prepare('SELECT name FROM t ORDER BY id').iterate()]).toEqual([{ name: 'x' }]);
      expect(db.pragma('user_version')).toBe(0);
      expect(db.pragma('table_info(t)', false).map((r) => r.name)).toEqual(['id', 'name']);
      expect(() => db.prepare('SELECT 1; SELECT 2')).toThrow(/more than one statement/);
      expect(() => db.prepare('SELECT 1; -- a comment')).not.toThrow();
    } finally {
      db.close();
    }
  });

  it('64-bit integers: exact with safeIntegers, and a rowid past 2^53 does not break later writes', () => {
    const db = openDb(path());
    try {
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      expect(db.prepare('SELECT 9223372036854775807 AS n').safeIntegers().get()).toEqual({
        n: 9223372036854775807n,
      });
      expect(db.prepare("INSERT INTO t VALUES (9007199254740993, 'big')").run().lastInsertRowid).toBe(
        9007199254740993n,
      );
      // The connection's last rowid is now past 2^53: node:sqlite threw on every later run().
      expect(db.prepare("UPDATE t SET v = 'still'").run().changes).toBe(1);
    } finally {
      db.close();
    }
  });

  it('one SQL text prepared twice: each keeps its rows, its integer mode and its iteration', () => {
    const db = openDb(path());
    try {
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
      db.exec('INSERT INTO t VALUES (1), (2), (3)');
      const sql = 'SELECT id FROM t WHERE id >= ? ORDER BY id';
      const walking = db.prepare<{ id: number }>(sql).iterate(1);
      const other = db.prepare<{ id: number | bigint }>(sql);
      const seen: unknown[] = [];
      for (const row of walking) {
        seen.push(row.id);
        // A call on the same text mid-iteration neither resets nor ends the walk.
        expect(other.all(2)).toEqual([{ id: 2 }, { id: 3 }]);
      }
      expect(seen).toEqual([1, 2, 3]);
      const exact = db.prepare(sql).safeIntegers();
      expect(exact.get(3)).toEqual({ id: 3n });
      expect(db.prepare(sql).get(3)).toEqual({ id: 3 });
      // A walk stopped early (break) frees the text for the next one.
      for (const row of db.prepare<{ id: number }>(sql).iterate(1)) if (row.id === 1) break;
      expect([...db.prepare(sql).iterate(2)]).toEqual([{ id: 2 }, { id: 3 }]);
    } finally {
      db.close();
    }
  });

  it('a text prepared again on one connection is compiled once, as long as 64 other texts have not been used since', () => {
    // The driver's own prepare, which compiles (neither driver caches: driver-statements.ts).
    const native = (
      driverName() === 'node:sqlite'
        ? (requireHere('node:sqlite') as { DatabaseSync: { prototype: object } }).DatabaseSync
        : (requireHere('better-sqlite3') as { prototype: object })
    ).prototype as { prepare(sql: string): unknown };
    const compile = vi.spyOn(native, 'prepare');
    const db = openDb(path());
    try {
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
      db.exec('INSERT INTO t VALUES (1), (2)');
      const sql = 'SELECT count(*) AS n FROM t WHERE id >= ?';
      const compiled = () => compile.mock.calls.filter(([text]) => text === sql).length;
      expect(db.prepare(sql).get(1)).toEqual({ n: 2 });
      expect(db.prepare(sql).get(2)).toEqual({ n: 1 });
      expect(compiled()).toBe(1);
      for (let i = 0; i < 64; i++) db.prepare(`SELECT ${i} AS n`).get();
      expect(db.prepare(sql).get(1)).toEqual({ n: 2 });
      expect(compiled()).toBe(2);
    } finally {
      db.close();
      compile.mockRestore();
    }
  });

  it('a transaction commits, rolls back when it throws, and a nested one undoes only itself', () => {
    const db = openDb(path());
    try {
      db.exec('CREATE TABLE t (v TEXT)');
      const ins = db.prepare('INSERT INTO t VALUES (?)');
      db.transaction(() => ins.run('kept'));
      expect(() =>
        db.transaction(() => {
          ins.run('undone');
          throw new Error('boom');
        }),
      ).toThrow('boom');
      db.transaction(() => {
        ins.run('outer');
        expect(() =>
          db.transaction(() => {
            ins.run('inner');
            throw new Error('inner boom');
          }),
        ).toThrow('inner boom');
      });
      expect(db.prepare('SELECT v FROM t ORDER BY rowid').all()).toEqual([{ v: 'kept' }, { v: 'outer' }]);
    } finally {
      db.close();
    }
  });

  it("errors carry SQLite's code name, as the mirror's messages expect", () => {
    const file = path();
    const db = openDb(file);
    db.exec('CREATE TABLE t (v TEXT UNIQUE)');
    db.prepare("INSERT INTO t VALUES ('a')").run();
    const codeOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return sqliteErrorCode(err);
      }
      return 'no error';
    };
    expect(codeOf(() => db.prepare("INSERT INTO t VALUES ('a')").run())).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect(codeOf(() => db.prepare('SELECT * FROM nowhere'))).toBe('SQLITE_ERROR');
    db.close();
    const ro = openDb(file, { readonly: true });
    expect(ro.readonly).toBe(true);
    expect(codeOf(() => ro.prepare("INSERT INTO t VALUES ('b')").run())).toBe('SQLITE_READONLY');
    ro.close();
    expect(codeOf(() => openDb(join(tempDir('mtg-driver-'), 'missing.db'), { mustExist: true }))).toBe(
      'SQLITE_CANTOPEN',
    );
    const notADb = path();
    writeFileSync(notADb, 'x'.repeat(4096));
    expect(
      codeOf(() => {
        const d = openDb(notADb, { readonly: true });
        try {
          d.prepare('SELECT * FROM sqlite_master').all();
        } finally {
          d.close();
        }
      }),
    ).toBe('SQLITE_NOTADB');
  });
});

describe('a driver that cannot load is one line: the driver, the cause, the fix', () => {
  const where = { nodeVersion: 'v26.10.0', abi: '147', folder: '/opt/lib/node_modules/mtg' };
  const failing = (err: Error) => (name: DriverName) => {
    if (name === 'node:sqlite') throw new Error('No such built-in module: node:sqlite');
    throw err;
  };

  it('built for another Node.js version: npm rebuild in the install folder, or a newer Node.js', () => {
    const abi = Object.assign(
      new Error(
        "The module '/opt/lib/node_modules/mtg/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n" +
          'was compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of ' +
          'Node.js requires\nNODE_MODULE_VERSION 147. Please try re-compiling or re-installing\nthe module.',
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    const e = driverLoadError('better-sqlite3', abi, where);
    expect(e.exitCode).toBe(ExitCode.api);
    expect(e.details).toEqual([]);
    expect(e.message).toBe(
      "The local mirror's SQLite driver (better-sqlite3) cannot load: it was built for another Node.js version " +
        '(NODE_MODULE_VERSION 115; Node.js v26.10.0 needs 147). Fix: run `npm rebuild better-sqlite3` in ' +
        '/opt/lib/node_modules/mtg, or upgrade Node.js to 22.16 or newer (it has SQLite built in)',
    );
    // The loader path: node:sqlite missing, better-sqlite3 failing.
    expect(() => loadDriver(failing(abi), {})).toThrow(/NODE_MODULE_VERSION 115; Node\.js v\S+ needs \d+/);
  });

  it('install script blocked (never built), and not installed at all', () => {
    const unbuilt = new Error(
      'Could not locate the bindings file. Tried:\n → /opt/lib/node_modules/mtg/node_modules/better-sqlite3/build/better_sqlite3.node',
    );
    expect(driverLoadError('better-sqlite3', unbuilt, where).message).toMatch(
      /^The local mirror's SQLite driver \(better-sqlite3\) cannot load: its native part was never built \(install script blocked.*\)\. Fix: run `npm rebuild better-sqlite3` in \/opt\/lib\/node_modules\/mtg, or upgrade Node\.js to 22\.16 or newer/,
    );
    const missing = Object.assign(new Error("Cannot find module 'better-sqlite3'\nRequire stack:\n- /x.js"), {
      code: 'MODULE_NOT_FOUND',
    });
    const m = driverLoadError('better-sqlite3', missing, where).message;
    expect(m).toMatch(/cannot load: it is not installed .*Fix: upgrade Node\.js to 22\.16 or newer/);
    expect(m).toContain('npm install -g --allow-scripts=better-sqlite3 meeting-notes-cli');
    for (const err of [unbuilt, missing]) {
      const line = driverLoadError('better-sqlite3', err, where).message;
      expect(line).not.toContain('\n');
    }
  });
});
