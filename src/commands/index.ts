// The command tree, in the order `mtg --help` lists it. Each command is declared as data in its
// folder's spec.ts; its module (the file of its name beside it) is loaded here, by one dynamic
// import, only when that command runs. Command modules import what they use statically.

import { command, group, type TreeNode } from '../cli/spec.js';
import * as actionItems from './action-items/spec.js';
import * as api from './api/spec.js';
import * as auth from './auth/spec.js';
import * as calendar from './calendar/spec.js';
import * as changes from './changes/spec.js';
import * as companies from './companies/spec.js';
import * as completion from './completion/spec.js';
import * as config from './config/spec.js';
import * as exportGroup from './export/spec.js';
import * as find from './find/spec.js';
import * as mcp from './mcp/spec.js';
import * as meetings from './meetings/spec.js';
import * as mirror from './mirror/spec.js';
import * as people from './people/spec.js';
import * as sandbox from './sandbox/spec.js';
import * as sql from './sql/spec.js';
import * as sync from './sync/spec.js';
import * as tags from './tags/spec.js';
import * as watch from './watch/spec.js';

export const commandTree: TreeNode[] = [
  group(auth.group, [
    command(auth.login, () => import('./auth/login.js')),
    command(auth.logout, () => import('./auth/logout.js')),
    command(auth.status, () => import('./auth/status.js')),
  ]),
  group(config.group, [
    command(config.get, () => import('./config/get.js')),
    command(config.set, () => import('./config/set.js')),
    command(config.unset, () => import('./config/unset.js')),
    command(config.list, () => import('./config/list.js')),
  ]),
  group(meetings.group, [
    command(meetings.list, () => import('./meetings/list.js')),
    command(meetings.search, () => import('./meetings/search.js')),
    command(meetings.view, () => import('./meetings/view.js')),
    command(meetings.transcript, () => import('./meetings/transcript.js')),
    command(meetings.share, () => import('./meetings/share.js')),
  ]),
  group(actionItems.group, [
    command(actionItems.list, () => import('./action-items/list.js')),
    command(actionItems.create, () => import('./action-items/create.js')),
    command(actionItems.update, () => import('./action-items/update.js')),
  ]),
  group(tags.group, [
    command(tags.create, () => import('./tags/create.js')),
    command(tags.update, () => import('./tags/update.js')),
    command(tags.apply, () => import('./tags/apply.js')),
  ]),
  group(calendar.group, [command(calendar.setNotes, () => import('./calendar/set-notes.js'))]),
  group(people.group, [command(people.list, () => import('./people/list.js'))]),
  group(companies.group, [
    command(companies.list, () => import('./companies/list.js')),
    command(companies.view, () => import('./companies/view.js')),
  ]),
  command(sync.sync, () => import('./sync/sync.js')),
  command(changes.changes, () => import('./changes/changes.js')),
  command(watch.watch, () => import('./watch/watch.js')),
  command(find.find, () => import('./find/find.js')),
  command(sql.sql, () => import('./sql/sql.js')),
  group(mirror.group, [
    command(mirror.status, () => import('./mirror/status.js')),
    command(mirror.reset, () => import('./mirror/reset.js')),
  ]),
  group(exportGroup.group, [command(exportGroup.markdown, () => import('./export/markdown.js'))]),
  command(api.api, () => import('./api/api.js')),
  command(mcp.mcp, () => import('./mcp/mcp.js')),
  command(sandbox.sandbox, () => import('./sandbox/sandbox.js')),
  command(completion.completion, () => import('./completion/completion.js')),
];
