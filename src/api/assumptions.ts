// The one module of choices made where the API spec says "not shown".
// Client and sandbox both read these, so each choice is one edit away when the real service differs.
// docs/assumptions.md lists them too.

/** Body of PUT /action-item/{id}. `assigneeProfileId: null` unassigns. */
export const ACTION_ITEM_UPDATE_FIELDS = ['title', 'description', 'status', 'assigneeProfileId'] as const;

/** Extra body fields of POST /action-items besides the required `title` (same names as the update body). */
export const ACTION_ITEM_CREATE_FIELDS = ['title', 'description', 'assigneeProfileId'] as const;

/** Body field of PUT /tag that lists the meetings to tag. */
export const TAG_APPLY_MEETINGS_FIELD = 'meetingIds' as const;

/** Share target variants: `{ email, access }` for a person, `{ teamId, access }` for a team. */
export const SHARE_ACCESS_VALUES = ['Viewer', 'Editor'] as const;
export type ShareAccess = (typeof SHARE_ACCESS_VALUES)[number];
export const SHARE_MAX_TARGETS = 50;

/** Action item states (spec section 3). */
export const ACTION_ITEM_STATUSES = ['PENDING', 'DONE'] as const;

/**
 * Values the spec shows for `access` (SharedWith) and `linkAccess` (Meeting). Like `status`, these
 * enums are open in responses: another value is printed as it came, with one warning per run.
 */
export const SHARE_ACCESS_SEEN = ['Owner', 'Viewer', 'Editor'] as const;
export const LINK_ACCESS_SEEN = ['Viewer', 'Editor'] as const;
export type ActionItemStatus = (typeof ACTION_ITEM_STATUSES)[number];

/** `status` filter of GET /action-items; omitted means PENDING. */
export const ACTION_ITEM_STATUS_FILTERS = ['PENDING', 'DONE', 'ALL'] as const;
export type ActionItemStatusFilter = (typeof ACTION_ITEM_STATUS_FILTERS)[number];
export const ACTION_ITEM_DEFAULT_STATUS_FILTER = 'PENDING';

/** assigneeType values of GET /action-items (from the spec) and the CLI words that map to them. */
export const ASSIGNEE_TYPES = [
  'Me',
  'NotMe',
  'Profile',
  'MyWorkspace',
  'OutsideMyWorkspace',
  'Unassigned',
  'Anyone',
] as const;
export type AssigneeType = (typeof ASSIGNEE_TYPES)[number];
export const ASSIGNEE_WORDS: Record<string, Exclude<AssigneeType, 'Profile'>> = {
  me: 'Me',
  'not-me': 'NotMe',
  anyone: 'Anyone',
  unassigned: 'Unassigned',
  'my-workspace': 'MyWorkspace',
  'outside-my-workspace': 'OutsideMyWorkspace',
};

/**
 * GET /meetings lists the newest (by createdAt) first: `meetings list --since` stops fetching at the
 * first page whose meetings are all older than --since. false would make it read every page.
 */
export const MEETINGS_NEWEST_FIRST = true;

/** Success statuses the sandbox sends; the client accepts any 2xx. */
export const CREATED_STATUS = 201;

/** Error codes and statuses the sandbox sends; the client decides by HTTP status, never by code alone. */
export const ERROR_CODES = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITED',
  500: 'INTERNAL',
} as const;

/** Plans and their rate-limit windows (spec section 8). Counted per account across keys. */
export const PLAN_LIMITS = {
  Free: [
    { limit: 3, windowMs: 1_000 },
    { limit: 20, windowMs: 60_000 },
  ],
  Pro: [
    { limit: 20, windowMs: 1_000 },
    { limit: 300, windowMs: 60_000 },
  ],
  Business: [
    { limit: 20, windowMs: 1_000 },
    { limit: 300, windowMs: 60_000 },
  ],
  Enterprise: [
    { limit: 20, windowMs: 1_000 },
    { limit: 300, windowMs: 60_000 },
  ],
} as const;
export type Plan = keyof typeof PLAN_LIMITS;
export const PLANS = Object.keys(PLAN_LIMITS) as Plan[];
