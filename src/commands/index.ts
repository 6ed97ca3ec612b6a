// The command tree, in the order `mtg --help` lists it.

import type { TreeNode } from '../cli/spec.js';
import { actionItemsGroup } from './action-items.js';
import { apiCommand } from './api.js';
import { authGroup } from './auth.js';
import { calendarGroup } from './calendar.js';
import { changesCommand } from './changes.js';
import { companiesGroup } from './companies.js';
import { completionCommand } from './completion.js';
import { configGroup } from './config.js';
import { exportGroup } from './export.js';
import { findCommand } from './find.js';
import { meetingsGroup } from './meetings.js';
import { mirrorGroup } from './mirror.js';
import { peopleGroup } from './people.js';
import { sandboxCommand } from './sandbox.js';
import { sqlCommand } from './sql.js';
import { syncCommand } from './sync.js';
import { tagsGroup } from './tags.js';
import { watchCommand } from './watch.js';

export const commandTree: TreeNode[] = [
  authGroup,
  configGroup,
  meetingsGroup,
  actionItemsGroup,
  tagsGroup,
  calendarGroup,
  peopleGroup,
  companiesGroup,
  syncCommand,
  changesCommand,
  watchCommand,
  findCommand,
  sqlCommand,
  mirrorGroup,
  exportGroup,
  apiCommand,
  sandboxCommand,
  completionCommand,
];
