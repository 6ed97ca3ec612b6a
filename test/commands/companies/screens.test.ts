// `companies view DOMAIN` as people read it: the company, its links and its people on a terminal
// (snapshot beside this file).
import { expect, it } from 'vitest';
import { runInProcess } from '../../helpers/inprocess.js';
import { useScreens } from '../../helpers/screens.js';

const screens = useScreens();

it('companies view on a terminal shows the company and its people', async () => {
  const listed = await runInProcess(['companies', 'list', '--limit', '1', '--format', 'json'], {
    env: screens.env,
  });
  expect(listed.code, listed.stderr).toBe(0);
  const domain = (JSON.parse(listed.stdout) as { domain: string }[])[0]!.domain;
  const r = await screens.onTerminal(['companies', 'view', domain]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain(domain);
  await expect(r.stdout).toMatchFileSnapshot('__snapshots__/companies-view.tty.txt');
});
