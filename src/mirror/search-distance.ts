// The typo lookup's distance (search-vocab.ts: nearestWord): Levenshtein with transpositions
// between a word and the spelled forms of the index's terms (a stem with a common ending), the
// terms walked as a trie.

export interface Candidate {
  term: string;
  form: string;
  d: number;
}

/** Endings porter takes off a word, tried on every stem (search-plan.ts spells a stem with them). */
const ENDINGS = ['', 's', 'ed', 'ing', 'e', 'es', 'er', 'ion'];
/** Endings tried on a stem ending in e, without its e ("decide" is stemmed "decid"), and in i. */
const E_ENDINGS = ['ing', 'ed', 'ion'];
const I_ENDINGS = ['y', 'ies'];

/**
 * The distance table of the strings walked against `target`, one row per character, in one typed
 * array (the walk runs once per new process, mostly before the JIT compiles it: few allocations).
 */
class DistanceTable {
  readonly width: number;
  readonly cells: Int32Array;
  /** Each row's smallest cell. */
  readonly mins: Int32Array;
  /** The target's UTF-16 codes (compared as numbers: a string's character is a new string each read). */
  private readonly codes: Int32Array;
  constructor(target: string, rows: number) {
    this.width = target.length + 1;
    this.cells = new Int32Array((rows + 1) * this.width);
    this.mins = new Int32Array(rows + 1);
    this.codes = new Int32Array(target.length);
    for (let j = 0; j < target.length; j++) this.codes[j] = target.charCodeAt(j);
    for (let j = 0; j < this.width; j++) this.cells[j] = j;
  }
  /** Row i + 1 from rows i and i - 1, for the character of code `c` at place i (`before`: the code at i - 1, -1 at 0); its minimum. */
  step(i: number, c: number, before: number): number {
    const { width, cells, codes } = this;
    const at = (i + 1) * width;
    const prev = i * width;
    const prev2 = (i - 1) * width;
    cells[at] = i + 1;
    let min = i + 1;
    let left = i + 1;
    for (let j = 1; j < width; j++) {
      const code = codes[j - 1]!;
      let v = cells[prev + j]! + 1;
      if (left + 1 < v) v = left + 1;
      const diagonal = cells[prev + j - 1]! + (c === code ? 0 : 1);
      if (diagonal < v) v = diagonal;
      if (j > 1 && before === code && c === codes[j - 2]) {
        const swapped = cells[prev2 + j - 2]! + 1;
        if (swapped < v) v = swapped;
      }
      cells[at + j] = v;
      left = v;
      if (v < min) min = v;
    }
    this.mins[i + 1] = min;
    return min;
  }
  /** The distance of the string whose last row is row `length`. */
  distance(length: number): number {
    return this.cells[length * this.width + this.width - 1]!;
  }
  /**
   * The distance of the string whose rows up to `base` the table holds followed by an ending,
   * without rows for the ending: the best split of the target between the two (`ending.after[j]`:
   * the distance from the target's characters j on to the ending), or a transposition across the
   * split (`last`: the code at base - 1, swapped with the ending's first character; then
   * `ending.tail` continues). The same value as stepping through the ending's characters.
   */
  joined(base: number, last: number, ending: Ending): number {
    const { width, cells, codes } = this;
    const { after, tail, first } = ending;
    const row = base * width;
    let d = cells[row]! + after[0]!;
    for (let j = 1; j < width; j++) {
      const v = cells[row + j]! + after[j]!;
      if (v < d) d = v;
    }
    if (base >= 1) {
      const prev = (base - 1) * width;
      for (let j = 2; j < width; j++)
        if (codes[j - 1] === last && codes[j - 2] === first) {
          const v = cells[prev + j - 2]! + 1 + tail[j]!;
          if (v < d) d = v;
        }
    }
    return d;
  }
}

/** An ending as DistanceTable.joined() takes it, for one target. */
interface Ending {
  text: string;
  /** Its first character's code. */
  first: number;
  /** after[j]: its distance to the target's characters from j on (more than `max`: max + 1 or more). */
  after: Int32Array;
  /** The same for the ending without its first character. */
  tail: Int32Array;
}

/** `endings` prepared for `target` (each suffix of the target against each ending, once per lookup). */
function endingsFor(target: string, endings: readonly string[], max: number): Ending[] {
  const against = (text: string) => {
    const out = new Int32Array(target.length + 1);
    for (let j = 0; j <= target.length; j++) out[j] = editDistance(target.slice(j), text, max);
    return out;
  };
  return endings
    .filter((text) => text !== '')
    .map((text) => ({ text, first: text.charCodeAt(0), after: against(text), tail: against(text.slice(1)) }));
}

/** The UTF-16 code at `i` of `s`, -1 before its start (no character: matches none of the target's). */
const code = (s: string, i: number): number => (i < 0 ? -1 : s.charCodeAt(i));

/**
 * The spelled forms of `terms` (sorted) within `max` edits of `target` (Levenshtein with
 * transpositions), in the order of the terms and of their forms. Terms are walked as a trie: the
 * rows of the distance table for a prefix shared with the term before are kept, and the terms
 * below a prefix already more than `max` edits away are skipped (every form extends it).
 */
export function withinDistance(target: string, terms: readonly string[], max: number): Candidate[] {
  const n = target.length;
  // Terms longer than n + max + 1 have no form within reach (skipped below); endings get no rows.
  const table = new DistanceTable(target, n + max + 2);
  // The prefix of the term before whose rows the table holds.
  let previous = '';
  let pruned: string | undefined;
  const out: Candidate[] = [];
  const endings = endingsFor(target, ENDINGS, max);
  const eEndings = endingsFor(target, E_ENDINGS, max);
  const iEndings = endingsFor(target, I_ENDINGS, max);
  // A form's distance from the rows of its base (the term, or the term without its last letter).
  const tryForms = (term: string, base: number, forms: readonly Ending[]) => {
    if (table.mins[base]! > max) return; // none within reach when its base is not
    const last = code(term, base - 1);
    for (const ending of forms) {
      const d = table.joined(base, last, ending);
      if (d <= max) out.push({ term, form: term.slice(0, base) + ending.text, d });
    }
  };
  for (const term of terms) {
    // (Sorted: the pruned prefix itself, a term whose shorter forms it does not rule out, came before.)
    if (pruned !== undefined && term.length > pruned.length && term.startsWith(pruned)) continue;
    pruned = undefined;
    // Too far in length for any form (the endings add at most three characters).
    if (term.length - 1 > n + max || term.length + 3 < n - max) continue;
    let shared = 0;
    while (shared < previous.length && shared < term.length && previous[shared] === term[shared]) shared++;
    let i = shared;
    for (; i < term.length; i++) {
      const min = table.step(i, term.charCodeAt(i), code(term, i - 1));
      // Every form extends the term without its last character: a proper prefix beyond reach
      // rules out every term below it.
      if (i + 1 < term.length && min > max) {
        pruned = term.slice(0, i + 1);
        break;
      }
    }
    if (i < term.length) {
      previous = pruned!;
      continue;
    }
    const whole = term.length;
    // The term itself ('' first among the endings), then its other forms, in ENDINGS' order.
    if (table.mins[whole]! <= max) {
      const d = table.distance(whole);
      if (d <= max) out.push({ term, form: term, d });
    }
    tryForms(term, whole, endings);
    previous = term;
    const shorter = term.endsWith('e') ? eEndings : term.endsWith('i') ? iEndings : undefined;
    if (shorter) tryForms(term, whole - 1, shorter);
  }
  return out;
}

function rowMin(row: readonly number[]): number {
  let min = row[0]!;
  for (const v of row) if (v < min) min = v;
  return min;
}

/** The distance table's row for the first i + 1 characters of `s` against `target`. */
function nextRow(rows: readonly number[][], s: string, i: number, target: string): number[] {
  const prev = rows[i]!;
  const prev2 = rows[i - 1];
  const c = s[i]!;
  const row = [i + 1];
  for (let j = 1; j <= target.length; j++) {
    const cost = c === target[j - 1] ? 0 : 1;
    let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
    if (prev2 && j > 1 && c === target[j - 2] && s[i - 1] === target[j - 1])
      v = Math.min(v, prev2[j - 2]! + 1);
    row.push(v);
  }
  return row;
}

/** Levenshtein distance with transpositions, computed up to `max` (anything beyond: max + 1). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 0; i < a.length; i++) {
    const row = nextRow(rows, a, i, b);
    if (rowMin(row) > max) return max + 1;
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
