// The filters the offline listings apply as the API does (sandbox and spec agree), apart from the
// reads that use them.

type Obj = Record<string, unknown>;

/** An ID as text: numbers and ExactInteger alike. */
export const idText = (v: unknown): string | undefined =>
  v === null || v === undefined ? undefined : String(v);

export /** Any of the tags, and any of the attendees (as the API filters: sandbox and spec agree). */
function meetingMatches(
  m: Obj,
  filter: { tagIds?: readonly string[]; attendeeProfileIds?: readonly string[] },
): boolean {
  if (filter.tagIds) {
    const tags = ((m.tags as Obj[] | undefined) ?? []).map((t) => idText(t.id));
    if (!filter.tagIds.some((id) => tags.includes(id))) return false;
  }
  if (filter.attendeeProfileIds) {
    const people = ((m.attendees as Obj[] | undefined) ?? []).map((a) => idText(a.profileId));
    if (!filter.attendeeProfileIds.some((id) => people.includes(id))) return false;
  }
  return true;
}
