// Opaque, signed cursors and cached filtered lists. A cursor is base64url("offset.snapshot.filterHash")
// plus an HMAC, so a modified cursor or one reused with other filters is rejected (400, path "cursor").
// The filtered list of the first page is kept as a snapshot that later pages slice, so paging through
// 100k items never re-filters them, and items changed mid-listing are neither skipped nor repeated.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { validationError } from './errors.js';

/** Snapshots kept at once; an evicted one is recomputed from current data. */
const MAX_SNAPSHOTS = 32;

interface Snapshot {
  key: string;
  items: readonly unknown[];
}

export interface PageRequest<T> {
  /** Identifies the endpoint, so a cursor cannot cross endpoints. */
  route: string;
  /** The request pathname as received (including any base path); the next link points there. */
  pathname: string;
  query: URLSearchParams;
  /** Store version: a cached snapshot is reused for a first page only while the data is unchanged. */
  version: number;
  compute: () => readonly T[];
}

export interface Page<T> {
  items: T[];
  /** Value of the Link header, when another page exists. */
  link?: string;
}

function filterKey(route: string, query: URLSearchParams): string {
  const names = [...new Set(query.keys())].filter((k) => k !== 'cursor').sort();
  return JSON.stringify([route, ...names.map((n) => [n, query.getAll(n).sort()])]);
}

const badCursor = (message: string) => validationError([{ path: 'cursor', message }]);

export class Paginator {
  private readonly snapshots = new Map<number, Snapshot>();
  private readonly latest = new Map<string, { seq: number; version: number }>();
  private seq = 0;

  constructor(
    private readonly secret: string,
    private readonly pageSize: number,
  ) {}

  page<T>(req: PageRequest<T>): Page<T> {
    const key = filterKey(req.route, req.query);
    const hash = createHash('sha256').update(key).digest('base64url').slice(0, 12);
    const raw = req.query.get('cursor');
    let offset = 0;
    let snapshot: Snapshot | undefined;
    let seq: number;
    if (raw === null) {
      const cached = this.latest.get(key);
      snapshot = cached && cached.version === req.version ? this.snapshots.get(cached.seq) : undefined;
      seq = snapshot ? cached!.seq : this.store(key, req.compute(), req.version);
      snapshot ??= this.snapshots.get(seq)!;
    } else {
      const decoded = this.decode(raw);
      if (decoded.hash !== hash) {
        throw badCursor(
          'this cursor belongs to a request with other filters; repeat the first request instead',
        );
      }
      offset = decoded.offset;
      snapshot = this.snapshots.get(decoded.seq);
      seq = decoded.seq;
      if (!snapshot || snapshot.key !== key) {
        seq = this.store(key, req.compute(), req.version);
        snapshot = this.snapshots.get(seq)!;
      }
    }
    const items = snapshot.items.slice(offset, offset + this.pageSize) as T[];
    const nextOffset = offset + this.pageSize;
    if (nextOffset >= snapshot.items.length) return { items };
    const params = new URLSearchParams(req.query);
    params.delete('cursor');
    params.append('cursor', this.encode(nextOffset, seq, hash));
    return { items, link: `<${req.pathname}?${params.toString()}>; rel="next"` };
  }

  private store(key: string, items: readonly unknown[], version: number): number {
    const seq = ++this.seq;
    this.snapshots.set(seq, { key, items });
    this.latest.set(key, { seq, version });
    if (this.snapshots.size > MAX_SNAPSHOTS) {
      const oldest = this.snapshots.keys().next().value as number;
      this.snapshots.delete(oldest);
    }
    if (this.latest.size > MAX_SNAPSHOTS * 4) this.latest.clear();
    return seq;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22);
  }

  private encode(offset: number, seq: number, hash: string): string {
    const payload = Buffer.from(`${offset}.${seq}.${hash}`).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  private decode(cursor: string): { offset: number; seq: number; hash: string } {
    const [payload, sig, extra] = cursor.split('.');
    const invalid = () => badCursor('invalid cursor: pass back the cursor of a Link header unmodified');
    if (!payload || !sig || extra !== undefined) throw invalid();
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    const [offset, seq, hash] = Buffer.from(payload, 'base64url').toString('utf8').split('.');
    const o = Number(offset);
    const s = Number(seq);
    if (!Number.isSafeInteger(o) || o < 0 || !Number.isSafeInteger(s) || !hash) throw invalid();
    return { offset: o, seq: s, hash };
  }
}
