// `mtg companies view` for people: a heading with the company, then its external links and its
// people as two small tables. Every server string is sanitized (the tables do it themselves).

import { sanitizeOneLine } from '../shared/sanitize.js';
import { createChalk } from './color.js';
import { isPlainObject } from './fields.js';
import { writeChunk } from './stream.js';
import { tableWriter } from './table.js';
import type { ResourceView, WriterOptions } from './types.js';
import { viewFor } from './views.js';

const LINK_VIEW: ResourceView = {
  name: 'external link',
  fields: ['type', 'objectType', 'url'],
  tableColumns: ['type', 'objectType', 'url'],
  dimColumns: ['objectType'],
};

const text = (v: unknown): string => (typeof v === 'string' ? sanitizeOneLine(v) : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Writes a company detail (GET /company/{domain}) as readable text. */
export async function writeCompanyDetail(
  out: NodeJS.WritableStream,
  company: unknown,
  opts: Pick<WriterOptions, 'color' | 'width'>,
): Promise<void> {
  const c = isPlainObject(company) ? company : {};
  const chalk = createChalk(opts.color);
  const name = text(c.name) || text(c.domain);
  const heading = [chalk.bold(name), c.domain ? chalk.dim(`(${text(c.domain)})`) : ''].filter(Boolean);
  const lines = [heading.join(' ')];
  if (text(c.avatarUrl)) lines.push(`${chalk.dim('Avatar:')} ${text(c.avatarUrl)}`);
  await writeChunk(out, `${lines.join('\n')}\n`);

  const links = list(c.externalLinks);
  await section(
    out,
    chalk.bold(`External links (${links.length})`),
    links,
    LINK_VIEW,
    opts,
    'No external links.',
  );
  const people = list(c.people);
  await section(out, chalk.bold(`People (${people.length})`), people, viewFor('person'), opts, 'No people.');
}

async function section(
  out: NodeJS.WritableStream,
  title: string,
  items: unknown[],
  view: ResourceView,
  opts: Pick<WriterOptions, 'color' | 'width'>,
  empty: string,
): Promise<void> {
  await writeChunk(out, `\n${title}\n`);
  if (items.length === 0) return writeChunk(out, `${empty}\n`);
  const writer = tableWriter(out, view, { format: 'table', color: opts.color, width: opts.width });
  await writer.writeMany(items);
  await writer.end();
}
