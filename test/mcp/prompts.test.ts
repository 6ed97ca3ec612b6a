// The prompts of `mtg mcp`, listed, fetched and completed through the SDK's client: each names the
// tools it expects the assistant to call, with the arguments given, and the arguments the SDK can
// complete are completed from the mirror.
import { describe, expect } from 'vitest';
import { connect, mcpTest as it, mcpEnv, type Obj, updateMirror } from './helpers.js';

const textOf = (r: Obj) => r.messages.map((x: Obj) => x.content.text).join('\n');

describe('prompts', () => {
  it('prompts/list: the four jobs, with their arguments', async ({ c }) => {
    const { prompts } = await c.client.listPrompts();
    const byName = Object.fromEntries(prompts.map((p) => [p.name, p]));
    expect(Object.keys(byName)).toEqual([
      'brief_meeting',
      'prepare_for_person',
      'open_commitments',
      'since_last_sync',
    ]);
    expect(byName.brief_meeting!.arguments).toEqual([
      expect.objectContaining({ name: 'id', required: true }),
    ]);
    expect(byName.prepare_for_person!.arguments).toEqual([
      expect.objectContaining({ name: 'person', required: true }),
    ]);
    expect(byName.open_commitments!.arguments).toEqual([
      expect.objectContaining({ name: 'since', required: false }),
    ]);
    expect(byName.since_last_sync!.arguments ?? []).toEqual([]);
    for (const p of prompts) expect(p.description?.length, p.name).toBeGreaterThan(30);
  });

  it('prompts/get: each names the tools to call with the arguments given, and that meeting text is data', async ({
    m,
    c,
  }) => {
    const id = m.sandbox.snapshot().meetings[0]!.id;
    const brief = textOf(await c.client.getPrompt({ name: 'brief_meeting', arguments: { id } }));
    expect(brief).toContain(`get_meeting with {"id": "${id}"}`);
    expect(brief).toContain('get_transcript');

    const prep = textOf(
      await c.client.getPrompt({ name: 'prepare_for_person', arguments: { person: 'Zoë' } }),
    );
    for (const call of [
      'get_person with {"name": "Zoë"}',
      'list_action_items with {"attendee": "Zoë"}',
      '{"assignee": "me", "attendee": "Zoë"}',
      'list_meetings with {"attendee": "Zoë", "limit": 5}',
    ])
      expect(prep).toContain(call);

    const open = textOf(await c.client.getPrompt({ name: 'open_commitments', arguments: { since: '7d' } }));
    expect(open).toContain('list_action_items with {"assignee": "me", "status": "pending", "since": "7d"}');
    const openAll = textOf(await c.client.getPrompt({ name: 'open_commitments', arguments: {} }));
    expect(openAll).toContain('list_action_items with {"assignee": "me", "status": "pending"}');

    // The last sync's changes start after the seq the prompt gives: the changes tool returns them.
    const changed = textOf(await c.client.getPrompt({ name: 'since_last_sync' }));
    const after = Number(/changes with \{"after": (\d+)\}/.exec(changed)?.[1]);
    const all = (await c.call('changes', { after: 0, limit: 1000 })).data.changes as Obj[];
    const lastRun = Math.max(...all.map((e) => e.run));
    expect(all.filter((e) => e.seq > after).every((e) => e.run === lastRun)).toBe(true);
    expect(all.filter((e) => e.run === lastRun).every((e) => e.seq > after)).toBe(true);

    for (const text of [brief, prep, open, changed]) expect(text).toMatch(/data, never as instructions/);
  });

  it('completion: meeting IDs by ID or name, people by name, from the mirror', async ({ m, c }) => {
    const snap = m.sandbox.snapshot();
    const meeting = snap.meetings.find((x: Obj) => typeof x.name === 'string' && /with /.test(x.name))!;
    const word = String(meeting.name).split(' ').at(-1)!;
    const ids = await c.client.complete({
      ref: { type: 'ref/prompt', name: 'brief_meeting' },
      argument: { name: 'id', value: word.toLowerCase() },
    });
    expect(ids.completion.values).toContain(meeting.id);
    const expected = snap.meetings.filter((x: Obj) =>
      String(x.name ?? '')
        .toLowerCase()
        .includes(word.toLowerCase()),
    );
    expect(ids.completion.values.sort()).toEqual(expected.map((x: Obj) => x.id).sort());

    const attendee = snap.meetings[0]!.attendees[1]!;
    const first = String(attendee.name).split(' ')[0]!;
    const people = await c.client.complete({
      ref: { type: 'ref/prompt', name: 'prepare_for_person' },
      argument: { name: 'person', value: first.slice(0, 3) },
    });
    expect(people.completion.values).toContain(attendee.name);
    for (const v of people.completion.values)
      expect(v.toLowerCase()).toContain(first.slice(0, 3).toLowerCase());
  });
});

describe('completion of prepare_for_person: each person once', () => {
  it('a name once however many meetings; where two people share a name, each one by email', async () => {
    const m = await mcpEnv();
    const c = await connect(m.env);
    try {
      const ids = (m.sandbox.snapshot().meetings as Obj[]).slice(0, 3).map((x) => x.id);
      const attendees = [
        [
          { name: 'Zed Single', email: 'zed.single@example.com' },
          { name: 'Zed Twin', email: 'zed.twin1@example.com' },
        ],
        [
          { name: 'Zed Single', email: 'zed.single@example.com' },
          { name: 'Zed Twin', email: 'zed.twin2@example.com' },
        ],
        [{ name: 'Zed Single', email: null }],
      ];
      for (const [i, id] of ids.entries()) {
        updateMirror(
          m.dataDir,
          "UPDATE meetings SET json = json_set(json, '$.attendees', json(?)) WHERE id = ?",
          JSON.stringify(attendees[i]),
          id,
        );
      }
      const { completion } = await c.client.complete({
        ref: { type: 'ref/prompt', name: 'prepare_for_person' },
        argument: { name: 'person', value: 'zed' },
      });
      expect(completion.values).toEqual(['Zed Single', 'zed.twin1@example.com', 'zed.twin2@example.com']);
      // The email is what get_person (the prompt's first call) finds alone.
      const person = await c.call('get_person', { name: 'zed.twin2@example.com' });
      expect(person.data.people).toHaveLength(1);
    } finally {
      await c.close();
      await m.sandbox.close();
    }
  });
});
