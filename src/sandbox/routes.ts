// The route table: method + path pattern -> handler. `{name}` segments become ctx.params.
import { createActionItem, listActionItems, updateActionItem } from './handlers/actionItems.js';
import type { Handler } from './handlers/context.js';
import { getCompany, listCompanies, listPeople } from './handlers/directory.js';
import { calendarMeeting, listMeetings, search, share, transcript } from './handlers/meetings.js';
import { applyTag, createTag, updateTag } from './handlers/tags.js';

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

const table: [string, string, Handler][] = [
  ['PUT', '/calendar/events/{calendarMeetingId}/meeting', calendarMeeting],
  ['GET', '/action-items', listActionItems],
  ['POST', '/action-items', createActionItem],
  ['PUT', '/action-item/{actionItemId}', updateActionItem],
  ['GET', '/company/{domain}', getCompany],
  ['GET', '/companies', listCompanies],
  ['GET', '/people', listPeople],
  ['GET', '/meeting/{meetingId}/transcript', transcript],
  ['PUT', '/meeting/{meetingId}/share', share],
  ['GET', '/search', search],
  ['GET', '/meetings', listMeetings],
  ['POST', '/tag', createTag],
  ['PUT', '/tag', applyTag],
  ['PUT', '/tag/{tagId}', updateTag],
];

const routes: Route[] = table.map(([method, path, handler]) => ({
  method,
  segments: path.split('/').slice(1),
  handler,
}));

export type RouteMatch =
  | { kind: 'found'; handler: Handler; params: Record<string, string> }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'none' };

function matchPath(segments: string[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if (seg.startsWith('{')) {
      if (part === '') return undefined;
      params[seg.slice(1, -1)] = part;
    } else if (seg !== part) return undefined;
  }
  return params;
}

/** `path` is relative to the base path, still percent-encoded. Returns undefined params on bad encoding. */
export function matchRoute(method: string, path: string): RouteMatch {
  const parts = path.split('/').slice(1);
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPath(route.segments, parts);
    if (!params) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    const decoded: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) {
      try {
        decoded[k] = decodeURIComponent(v);
      } catch {
        return { kind: 'none' };
      }
    }
    return { kind: 'found', handler: route.handler, params: decoded };
  }
  return allowed.length > 0 ? { kind: 'wrong-method', allowed } : { kind: 'none' };
}
