// The mirror as people read it (snapshots beside this file): `sync`'s summary, then `find` over what
// it fetched, on a terminal of 100 columns. (`changes` and `mirror status` print when each sync ran,
// by the machine's clock, not the run's io.now: no stable snapshot of those yet.)
import { beforeAll, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/inprocess.js';
import { NOW, useScreens } from '../../helpers/screens.js';
import { tempDir } from '../../helpers/temp.js';

const screens = useScreens();
let mirrorEnv: Record<string, string | undefined>;
let sync: Awaited<ReturnType<typeof runInProcess>>;

beforeAll(async () => {
  mirrorEnv = {
    ...screens.env,
    MTG_DATA_DIR: tempDir('mtg-screens-data-'),
    MTG_CONFIG_DIR: tempDir('mtg-screens-config-'),
  };
  sync = await runInProcess(['sync'], { env: mirrorEnv });
});

it('sync says what it fetched, per resource, in one line', async () => {
  expect(sync.code, sync.stderr).toBe(0);
  expect(sync.stdout).toBe('');
  expect(sync.stderr).toMatch(/^Synced: 30 meetings \(\+30 ~0 -0\), .* requests in \d+s\n$/);
  // The elapsed time is the machine's: the snapshot holds the rest, byte for byte.
  await expect(sync.stderr.replace(/ in \d+s\n$/, ' in <elapsed>\n')).toMatchFileSnapshot(
    '__snapshots__/sync.summary.txt',
  );
});

it('find TEXT on a terminal: the meeting, date, where the text is, and the match in its passage', async () => {
  const r = await runInProcess(['find', 'budget', '--limit', '6'], {
    env: mirrorEnv,
    tty: true,
    columns: 100,
    now: NOW,
  });
  expect(r.code, r.stderr).toBe(0);
  for (const line of r.stdout.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  await expect(r.stdout).toMatchFileSnapshot('__snapshots__/find.tty.txt');
});
