// Ranked windows made into hits: the best entry, its snippet and the matched words.

import type { Db } from './driver.js';
import { meetingPassages, type Passage, ROWID_MEETING_SHIFT } from './passages.js';
import type { MeetingHit, PassageHit, SearchPlan, Window } from './search-types.js';
import { clampSnippet, freeSeparator, plainSnippet, SNIPPET_MAX, snippetMaker } from './snippets.js';

/** The hits of `windows`: where (best entry), snippet and matched words, in that order. */
export function materialize(
  plan: SearchPlan,
  windows: readonly Window[],
  passagesOf: Map<string, Passage[]>,
  db?: Db,
): Omit<PassageHit, 'rank'>[] {
  if (db) {
    const source = db.prepare<{ json: string; transcript: string | null }>(
      'SELECT m.json, t.json AS transcript FROM meetings m LEFT JOIN transcripts t ON t.meeting_id = m.id WHERE m.id = ?',
    );
    for (const w of windows) {
      if (passagesOf.get(w.meetingId)?.length) continue;
      const r = source.get(w.meetingId);
      if (r)
        passagesOf.set(
          w.meetingId,
          meetingPassages(
            JSON.parse(r.json) as Record<string, unknown>,
            r.transcript === null ? undefined : JSON.parse(r.transcript),
          ),
        );
    }
  }
  const texts = windows.map((w) =>
    (passagesOf.get(w.meetingId) ?? [])
      .slice(w.first, w.first + w.count)
      .map((p) => p.text)
      .join('\n'),
  );
  const byMeeting = new Map<string, number[]>();
  windows.forEach((w, i) => {
    const list = byMeeting.get(w.meetingId);
    if (list) list.push(i);
    else byMeeting.set(w.meetingId, [i]);
  });
  let made: { snippet: string; matched: string[] }[];
  const snippetsOf = snippetMaker(plan.match);
  try {
    // One batch for all the hits (one table fill, one query): a text's snippet depends only on the
    // text. Meeting by meeting only when the texts together hold every separator candidate (hostile
    // text): a meeting's snippets then still get a separator whenever its own texts leave one free.
    if (freeSeparator(texts) !== undefined) made = snippetsOf(texts);
    else {
      made = new Array(windows.length).fill({ snippet: '', matched: [] });
      for (const ats of byMeeting.values()) {
        const some = snippetsOf(ats.map((at) => texts[at]!));
        ats.forEach((at, k) => {
          made[at] = some[k]!;
        });
      }
    }
  } finally {
    snippetsOf.close();
  }
  return windows.map((w, i) => {
    const passages = passagesOf.get(w.meetingId) ?? [];
    const best = passages[w.best] ?? passages[w.first];
    const { snippet, matched } = made[i]!;
    return {
      meetingId: w.meetingId,
      meetingName: w.meetingName,
      createdAt: w.createdAt,
      in: w.kind,
      speaker: best?.speaker ?? null,
      timestamp: typeof best?.timestamp === 'number' ? best.timestamp : null,
      // A window found by its speakers alone has no match in its text: its beginning.
      snippet: snippet || clampSnippet(texts[i]!.slice(0, SNIPPET_MAX * 2)),
      matched: [...new Set([...matched, ...w.speakerMatches])],
    };
  });
}

/** A hit as data: matches between ** in its snippets (the private marks never leave mtg). */
export function plainHit<T extends PassageHit | MeetingHit>(hit: T): T {
  const out = { ...hit, snippet: plainSnippet(hit.snippet) };
  if ('passages' in out) out.passages = out.passages.map((p) => ({ ...p, snippet: plainSnippet(p.snippet) }));
  return out;
}

/** Meetings with a matching passage, by their best passage: offline `meetings search TERM`. */
export function rankedMeetingIds(db: Db, match: string): string[] {
  // bm25() cannot feed an aggregate, so the best passage of each meeting is its first one in rank order.
  const seen = new Set<number>();
  const rows = db.prepare<{ base: number }>(
    `SELECT rowid >> ${ROWID_MEETING_SHIFT} AS base FROM passages WHERE passages MATCH ? ORDER BY rank, rowid`,
  );
  for (const row of rows.iterate(match)) seen.add(Number(row.base));
  const idOf = db.prepare<{ id: string }>('SELECT id FROM meetings WHERE passage_base = ?');
  return [...seen].flatMap((base) => {
    const row = idOf.get(base);
    return row ? [String(row.id)] : [];
  });
}
