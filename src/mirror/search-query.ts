// The user's query turned into a safe FTS5 MATCH expression: words, "phrases", prefix*, a OR b,
// -excluded; stop and question words dropped (search.ts says why).

import { hasCjk, segmentCjk } from '../shared/cjk.js';
import { UsageError } from '../shared/errors.js';

export const PASSAGE_KINDS = ['name', 'notes', 'transcript', 'action-items', 'attendees'] as const;
export type PassageKind = (typeof PASSAGE_KINDS)[number];

/** One alternative of a concept: an FTS5 string (a quoted phrase, maybe with a trailing *). */
export interface Alternative {
  fts: string;
  /** What the user typed (the word, or the phrase's text), lowercased. */
  text: string;
  /** A bare word (not a phrase, not a prefix): typo correction may replace it. */
  word: boolean;
}

/** A concept of the query: one word or "phrase", or several joined by OR. */
export interface Concept {
  alternatives: Alternative[];
}

export interface ParsedQuery {
  concepts: Concept[];
  excluded: string[];
}

const WORDISH = /[\p{L}\p{N}]/u;

/** One FTS5 string; CJK characters as the index has them, one token each (a run: a phrase). */
export function quote(text: string, prefix: boolean): string {
  const tokens = segmentCjk(text).trim().replace(/\s+/g, ' ');
  return `"${tokens.replace(/"/g, '""')}"${prefix ? '*' : ''}`;
}

/**
 * Words that carry no weight in a query of several words: English stop words, and the words that
 * frame a question ("what did … say about …", "summarize the discussion of …"). A query of only
 * such words keeps them (`find the` still finds "the").
 */
const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are aren as at be because been before being below ' +
    'between both but by can cannot could couldn did didn do does doesn doing don down during each few for ' +
    'from further had hadn has hasn have haven having he her here hers herself him himself his how i if in ' +
    'into is isn it its itself just let me more most mustn my myself no nor not of off on once only or other ' +
    'ought our ours ourselves out over own same shan she should shouldn so some such than that the their ' +
    'theirs them themselves then there these they this those through to too under until up very was wasn we ' +
    'were weren what when where which while who whom why will with won would wouldn you your yours yourself ' +
    'yourselves s t ll ve re d m also get got us like well yeah okay ok oh um uh hmm ' +
    // question framing
    'say said says tell told think thought thinks talk talked talking discuss discussed discussing ' +
    'discussion discussions mention mentioned mentions summarize summarise summary ask asked opinion ' +
    'opinions view views according whole meeting meetings group anything something everything ' +
    // a request's own verbs ("find where we…", "show me…", "remind me what we know about…")
    'find show look looking know knew remind recall'
  ).split(' '),
);

/** A stop or question word (lowercased): never the typo correction's to replace (search-plan.ts). */
export function isStopWord(text: string): boolean {
  return STOP_WORDS.has(text);
}

/** A word as the query means it: a possessive ("Dana's", "Dana’s") is its name. */
function bareWord(word: string): string {
  return word.replace(/['’]s$/iu, '');
}

/**
 * The user's query as concepts and exclusions. Malformed (empty, an unbalanced quote, only
 * exclusions, a dangling OR): a UsageError with a one-line reason.
 */
export function parseQuery(query: string): ParsedQuery {
  type Token = { kind: 'term'; alt: Alternative; negated: boolean } | { kind: 'or' };
  const tokens: Token[] = [];
  let i = 0;
  const s = query;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    let negated = false;
    let start = i;
    if (c === '-' && i + 1 < s.length && !/\s/.test(s[i + 1]!)) {
      negated = true;
      start = ++i;
    }
    if (s[start] === '"') {
      const end = s.indexOf('"', start + 1);
      if (end < 0) throw new UsageError(`Unbalanced quote in the query: ${JSON.stringify(query)}`);
      const phrase = s.slice(start + 1, end);
      let next = end + 1;
      const prefix = s[next] === '*';
      if (prefix) next++;
      i = next;
      if (!WORDISH.test(phrase)) continue; // "" or punctuation only: nothing FTS5 could match
      const text = phrase.trim().toLowerCase();
      tokens.push({ kind: 'term', alt: { fts: quote(phrase.trim(), prefix), text, word: false }, negated });
      continue;
    }
    let end = start;
    while (end < s.length && !/\s/.test(s[end]!) && s[end] !== '"') end++;
    let word = s.slice(start, end);
    i = end;
    if (!negated && word === 'OR') {
      tokens.push({ kind: 'or' });
      continue;
    }
    const prefix = word.endsWith('*');
    word = word.replace(/\*+$/, '');
    if (!prefix) word = bareWord(word.replace(/[?!.,;:]+$/u, ''));
    if (!WORDISH.test(word)) continue; // "-", "&&", "*": no word in it
    const text = word.toLowerCase();
    // A word of one token (no inner punctuation or CJK run): typo correction may replace it.
    const single = /^[\p{L}\p{N}]+$/u.test(word) && !hasCjk(word) && !prefix;
    tokens.push({ kind: 'term', alt: { fts: quote(word, prefix), text, word: single }, negated });
  }

  const concepts: Concept[] = [];
  const excluded: string[] = [];
  let pendingOr = false;
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k]!;
    if (token.kind === 'or') {
      const before = tokens[k - 1];
      const after = tokens[k + 1];
      if (before?.kind !== 'term' || before.negated || !after || after.kind !== 'term' || after.negated) {
        throw new UsageError('OR needs a word or "phrase" on each side (and cannot join an -exclusion)');
      }
      pendingOr = true;
      continue;
    }
    if (token.negated) excluded.push(token.alt.fts);
    else if (pendingOr) concepts[concepts.length - 1]!.alternatives.push(token.alt);
    else concepts.push({ alternatives: [token.alt] });
    pendingOr = false;
  }
  if (concepts.length === 0) {
    if (excluded.length > 0)
      throw new UsageError('The query only excludes (-word): give at least one word to find');
    throw new UsageError('The query has no word to search for');
  }
  // Stop and question words go, unless nothing else is left; a repeated concept counts once.
  const isStop = (c: Concept) =>
    c.alternatives.length === 1 && c.alternatives[0]!.word && STOP_WORDS.has(c.alternatives[0]!.text);
  const content = concepts.filter((c) => !isStop(c));
  const seen = new Set<string>();
  const kept = (content.length > 0 ? content : concepts).filter((c) => {
    const key = c.alternatives.map((a) => a.fts).join(' OR ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { concepts: kept, excluded };
}

/** A concept as FTS5 syntax. */
export function conceptExpression(concept: Concept): string {
  const alts = concept.alternatives.map((a) => a.fts);
  return alts.length === 1 ? alts[0]! : `(${alts.join(' OR ')})`;
}

/** The passages holding any concept of the query and none of its exclusions, as FTS5 syntax. */
export function matchExpression(parsed: ParsedQuery): string {
  const positive = parsed.concepts.map(conceptExpression).join(' OR ');
  if (parsed.excluded.length === 0) return positive;
  return parsed.excluded.reduce((expr, term) => `${expr} NOT ${term}`, `(${positive})`);
}

/**
 * The user's query as an FTS5 MATCH expression (no typo correction). Malformed: a UsageError.
 */
export function toMatchExpression(query: string): string {
  return matchExpression(parseQuery(query));
}
