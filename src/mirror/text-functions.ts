// mtg's text functions in SQL, so that filters by a name or a word run in the statement, folded
// exactly as foldText folds (src/shared/fold.ts) and lower-cased as JavaScript does.

import { foldText } from '../shared/fold.js';
import type { Db } from './driver.js';

/** Connections that have mtg_fold and mtg_lower. */
const withTextFunctions = new WeakSet<Db>();

/** `db`, with mtg_fold(text) (case and accents folded) and mtg_lower(text) defined once. */
export function textFunctions(db: Db): Db {
  if (withTextFunctions.has(db)) return db;
  db.defineFunction('mtg_fold', (v) => (v === null ? null : foldText(String(v))));
  db.defineFunction('mtg_lower', (v) => (v === null ? null : String(v).toLowerCase()));
  withTextFunctions.add(db);
  return db;
}
