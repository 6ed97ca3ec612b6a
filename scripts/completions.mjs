// Writes the shell completion scripts shipped in the package (completions/) from the built CLI, so
// they always match the command tree. `npm run completions` builds first; a test fails when the
// committed files fall behind `mtg completion <shell>`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = { bash: 'mtg.bash', zsh: '_mtg', fish: 'mtg.fish' };

mkdirSync(join(root, 'completions'), { recursive: true });
for (const [shell, file] of Object.entries(files)) {
  const script = execFileSync(process.execPath, [join(root, 'bin', 'mtg.js'), 'completion', shell], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  writeFileSync(join(root, 'completions', file), script);
  console.log(`completions/${file}`);
}
