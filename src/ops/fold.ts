// How a person's name or email is compared with what someone typed: folded as the mirror's
// full-text index folds (src/shared/fold.ts), so "jose" finds "José".

import { foldText } from '../shared/fold.js';

export { foldText as fold };
