// `get_person`: the people a name or email may mean, with the meetings together and the open items
// each way; the lookup is the operation's (src/ops/people.ts).

import { z } from 'zod';
import { findPeople } from '../../ops/people.js';
import { defineTool, type Obj, ok, READ, text } from './define.js';

export const getPerson = defineTool({
  name: 'get_person',
  title: 'Get a person',
  description:
    "Every person a name or email may mean (from the people list, the meetings' attendees and the " +
    "action items' assignees), best first: {people: [{profileId, name, email, title, companyName, " +
    "meetings: {count, last} (meetings they attended, the last one's date), openItems: {assignedToThem, " +
    "assignedToMe} (pending items assigned to them; pending items of the user's from meetings they " +
    'attended)}]}. The items themselves: list_action_items with assignee NAME ("what does NAME owe me") ' +
    'or assignee me and attendee NAME ("what did I promise NAME"). truncated: more people matched; give ' +
    'more of the name.',
  input: z.strictObject({
    name: text('name').describe('part of a name or email (accents and case do not matter)'),
  }),
  annotations: READ,
  run: async (a, { access }) =>
    access.read(async (r) => {
      const found = await findPeople(r.mirror, { name: a.name });
      const result: Obj = { people: found.people };
      if (found.more) result.truncated = true;
      return ok(result);
    }),
});
