// `mtg mirror reset` deletes only an mtg mirror: another program's SQLite database or a file that
// is no SQLite database is exit 2 and left untouched, unless --force.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../../src/mirror/driver.js';
import { tempConfigDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';
import { tempDir } from '../../helpers/temp.js';
import { mirrorEnvs } from '../../mirror/helpers.js';

/** mirrorEnv(), each stopped after this file's tests. */
const env = mirrorEnvs();

function localMtg(dataDir: string, args: string[]) {
  return runInProcess(args, { env: { MTG_DATA_DIR: dataDir, MTG_CONFIG_DIR: tempConfigDir() } });
}

describe('mtg mirror reset', () => {
  it("refuses another program's database and a non-SQLite file (exit 2, file untouched); --force deletes", async () => {
    const dir = tempDir('mtg-foreign-');
    const path = join(dir, 'default.db');
    const db = openDb(path);
    db.exec('CREATE TABLE precious (x TEXT)');
    db.prepare('INSERT INTO precious VALUES (?)').run('keep me');
    db.close();
    const before = readFileSync(path);
    const r = await localMtg(dir, ['mirror', 'reset']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(path);
    expect(r.stderr).toMatch(/not an mtg mirror \(another program's SQLite database\)/);
    expect(readFileSync(path).equals(before)).toBe(true);

    writeFileSync(path, Buffer.alloc(4096, 7));
    const sync = await localMtg(dir, ['mirror', 'status']);
    expect(sync.code).toBe(2);
    expect(sync.stderr).toMatch(/not an mtg mirror/);
    expect(sync.stderr).not.toMatch(/mirror reset`/);
    const bytes = await localMtg(dir, ['mirror', 'reset']);
    expect(bytes.code).toBe(2);
    expect(bytes.stderr).toMatch(/not an SQLite database/);
    expect(existsSync(path)).toBe(true);

    const forced = await localMtg(dir, ['mirror', 'reset', '--force']);
    expect(forced.code).toBe(0);
    expect(existsSync(path)).toBe(false);
  });

  it('still deletes an mtg mirror', async () => {
    const m = await env({ seed: 21 });
    expect((await m.sync()).code).toBe(0);
    const r = await m.mtg(['mirror', 'reset']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Deleted the mirror of profile default/);
    expect(existsSync(m.dbPath)).toBe(false);
  });
});
