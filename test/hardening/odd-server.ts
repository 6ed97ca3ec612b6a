// A small API server that is not the sandbox: each test gives it the exact answers (status,
// headers, body text) to send, so a test can play a server that differs from the sandbox in the
// ways the spec allows (other page sizes, Link forms, header variants, error bodies, bodiless 2xx,
// additive changes, large integers). It records every request.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as is (a string keeps numbers byte-exact); undefined sends no body. */
  body?: string;
}

export interface Seen {
  method: string;
  url: string;
  body: string;
}

/** Picks the answer for a request; `n` counts earlier requests with the same method and path. */
export type Route = (req: IncomingMessage, n: number) => Answer;

export interface OddServer {
  baseUrl: string;
  requests: Seen[];
  close(): Promise<void>;
}

export async function startOddServer(route: Route): Promise<OddServer> {
  const requests: Seen[] = [];
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      body += d;
    });
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const key = `${req.method} ${path}`;
      const n = counts.get(key) ?? 0;
      counts.set(key, n + 1);
      requests.push({ method: req.method ?? '', url: req.url ?? '', body });
      const answer = route(req, n);
      const headers: Record<string, string> = {
        ...(answer.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...answer.headers,
      };
      res.writeHead(answer.status ?? 200, headers);
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An action item as the spec shows it, with overrides. */
export function actionItem(id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    title: `item ${id}`,
    description: '',
    assignee: null,
    status: 'PENDING',
    meetingIds: [],
    ...extra,
  };
}

/** A meeting as the spec shows it (no attendees, no notes), with overrides. */
export function meeting(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: `Meeting ${id}`,
    createdAt: '2025-06-01T11:11:00.000Z',
    updatedAt: '2025-06-01T11:11:00.000Z',
    duration: 60,
    url: null,
    tags: [],
    icalUid: null,
    attendees: [],
    notes: null,
    privateNotes: '',
    actionItems: [],
    insights: {},
    linkAccess: null,
    ...extra,
  };
}

/** A person as the spec shows it. */
export function person(id: number): Record<string, unknown> {
  return {
    id,
    title: null,
    companyId: null,
    companyName: null,
    email: `p${id}@example.com`,
    firstName: `P${id}`,
    lastName: null,
  };
}

export const KEY = 'mtg_sk_oddserver';
export const oddEnv = (server: OddServer) => ({ MTG_BASE_URL: server.baseUrl, MTG_API_KEY: KEY });
