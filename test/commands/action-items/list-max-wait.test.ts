// `mtg action-items list --max-wait`, in-process against a sandbox of tight windows.
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { sandboxEnv } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/inprocess.js';

describe('--max-wait', () => {
  it('gives up with exit 5 once waiting would pass it, saying how far the export got', async () => {
    const sb = await startSandbox({ port: 0, pageSize: 5, limits: '2/30s' });
    try {
      const r = await runInProcess(
        ['action-items', 'list', '--assignee', 'anyone', '--format', 'ndjson', '--max-wait', '1'],
        {
          env: sandboxEnv(sb),
        },
      );
      expect(r.code).toBe(5);
      expect(r.stdout.trim().split('\n')).toHaveLength(10);
      expect(r.stderr).toContain('--max-wait 1 s');
      expect(r.stderr).toContain('Stopped after 10 action items');
      expect(sb.count429).toBe(0);
    } finally {
      await sb.close();
    }
  });
});
