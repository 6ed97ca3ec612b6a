// mtg auth login: store an API key for a profile after checking it with one request.

import { ExitCode, UsageError } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';
import { defineRun } from '../../cli/spec.js';
import { maskKey } from '../../config/settings.js';
import { probe } from './probe.js';
import * as spec from './spec.js';

async function readKey(ctx: Context): Promise<string> {
  const { stdin, stderr } = ctx.io;
  if (!stdin.isTTY) {
    let text = '';
    stdin.setEncoding('utf8');
    for await (const chunk of stdin) text += chunk;
    return text.trim();
  }
  // A hidden prompt: read raw keystrokes without echoing them.
  stderr.write('Paste your API key (input hidden): ');
  const tty = stdin as NodeJS.ReadStream;
  tty.setRawMode(true);
  tty.resume();
  tty.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let key = '';
    const done = (err?: Error) => {
      tty.setRawMode(false);
      tty.pause();
      tty.off('data', onData);
      stderr.write('\n');
      if (err) reject(err);
      else resolve(key.trim());
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new UsageError('Cancelled'));
        if (ch === '\u007f' || ch === '\b') key = key.slice(0, -1);
        else key += ch;
      }
    };
    tty.on('data', onData);
  });
}

export const run = defineRun(spec.login, async (ctx) => {
  const store = await ctx.store();
  store.checkWritable();
  const settings = await ctx.settings();
  const baseUrl = ctx.baseUrl(settings);
  const key = await readKey(ctx);
  if (!key) throw new UsageError('No API key given (pipe it on stdin or paste it at the prompt)');
  if (/\s/.test(key)) throw new UsageError('The API key must not contain spaces or line breaks');
  await probe(ctx, key, baseUrl);
  // Key and base URL in one locked write: a login either stores both or reports failure.
  await store.update(settings.profile, {
    'api-key': key,
    ...(settings.baseUrlSource !== 'config' && { 'base-url': baseUrl.href.replace(/\/$/, '') }),
  });
  ctx.progress.note(`Logged in to ${baseUrl.origin} as profile "${settings.profile}" (key ${maskKey(key)}).`);
  ctx.progress.note(`Stored in ${store.path}`);
  return ExitCode.ok;
});
