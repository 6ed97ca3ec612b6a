// `people list` as people read it: the table on a terminal of 100 columns (snapshot beside this file).
import { expect, it } from 'vitest';
import { useScreens } from '../../helpers/screens.js';

const screens = useScreens();

it('people list on a terminal is a table that fits', async () => {
  const r = await screens.onTerminal(['people', 'list', '--limit', '10']);
  expect(r.code).toBe(0);
  for (const line of r.stdout.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  await expect(r.stdout).toMatchFileSnapshot('__snapshots__/people-list.tty.txt');
});
