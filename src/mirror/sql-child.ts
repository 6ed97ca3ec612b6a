// The program of `mtg sql`'s statement process (sql-runner.ts starts it with `node -e`).

/** Rows per batch, at most; a batch also ends at about BATCH_CHARS of text or BATCH_MS of stepping. */
const BATCH_ROWS = 500;
const BATCH_CHARS = 1 << 20;
const BATCH_MS = 100;

// The child's whole program (CommonJS, run with `node -e`). Messages over the IPC channel
// (structured clone: BigInt and Uint8Array cells arrive as they are):
//   parent → child  {type: 'run', path, sql, busyMs}   then {type: 'next'} for each batch
//   child → parent  {type: 'ready'} | {type: 'rows', rows: [[cell, …], …], done} | {type: 'error', message, code}
export const CHILD = `(() => {
  'use strict';
  const [, specifier] = process.argv;
  // node:sqlite's ExperimentalWarning (Node 22) would be the last line of stderr, read only if this dies.
  process.removeAllListeners('warning');
  const { Worker } = require('node:worker_threads');
  // The watchdog: a thread of its own, so it runs while the main one is inside a step.
  new Worker(
    "const { workerData } = require('node:worker_threads');" +
      "setInterval(() => { if (process.ppid !== workerData.ppid) process.kill(process.pid, 'SIGKILL'); }, 250);",
    { eval: true, workerData: { ppid: process.ppid } },
  ).unref();
  // The parent decides when this process ends (a terminal's Ctrl-C reaches the whole group).
  process.on('SIGINT', () => {});
  const send = (m) => process.send(m);
  const fail = (err) => send({ type: 'error', message: String((err && err.message) || err), code: err && err.code });
  let columns, rows, db;
  const run = (m) => {
    const driver = require(specifier);
    // A process serves one statement after another (a server's pool): the last one's connection
    // goes first, its iteration ended (better-sqlite3 refuses to close a connection mid-iteration).
    try {
      if (rows && rows.return) rows.return();
      if (db) db.close();
    } catch {}
    rows = db = undefined;
    let stmt;
    if (specifier === 'node:sqlite') {
      db = new driver.DatabaseSync(m.path, { readOnly: true });
      db.exec('PRAGMA busy_timeout = ' + m.busyMs + '; PRAGMA query_only = ON; PRAGMA cache_size = -2000');
      stmt = db.prepare(m.sql);
      stmt.setReadBigInts(true);
      columns = stmt.columns().map((c) => c.name);
    } else {
      db = new driver(m.path, { readonly: true, fileMustExist: true, timeout: m.busyMs });
      db.pragma('query_only = ON');
      db.pragma('cache_size = -2000');
      stmt = db.prepare(m.sql);
      stmt.safeIntegers(true);
      columns = stmt.columns().map((c) => c.name);
    }
    rows = stmt.iterate();
    send({ type: 'ready' });
  };
  const next = () => {
    const batch = [];
    const started = Date.now();
    let chars = 0;
    for (;;) {
      const r = rows.next();
      if (r.done) return send({ type: 'rows', rows: batch, done: true });
      const cells = columns.map((c) => r.value[c]);
      batch.push(cells);
      for (const cell of cells) chars += typeof cell === 'string' ? cell.length : cell && cell.length ? cell.length : 8;
      if (batch.length >= ${BATCH_ROWS} || chars >= ${BATCH_CHARS} || Date.now() - started >= ${BATCH_MS})
        return send({ type: 'rows', rows: batch, done: false });
    }
  };
  process.on('message', (m) => {
    try {
      if (m.type === 'run') run(m);
      else if (m.type === 'next') next();
    } catch (err) {
      fail(err);
    }
  });
  process.on('disconnect', () => process.exit(0));
})();`;
