// The command tree, in the order `mtg --help` lists it.

import type { TreeNode } from '../cli/spec.js';
import { authGroup } from './auth.js';
import { completionCommand } from './completion.js';
import { configGroup } from './config.js';
import { meetingsGroup } from './meetings.js';
import { sandboxCommand } from './sandbox.js';

export const commandTree: TreeNode[] = [authGroup, configGroup, meetingsGroup, sandboxCommand, completionCommand];
