// A large mirror for the read benchmarks (bench/mirror-read.mjs), written through the mirror's own
// modules: openMirror() (schema, migrations, modes), the meetings/transcripts columns sync writes,
// and passageWriter() for the full-text index, so the file has the layout and the index a sync
// would leave. The objects follow the spec's shapes; the text is seeded pseudo-English.

import * as E from '../src/api/endpoints.js';
import { dataDir } from '../src/config/data-dir.js';
import { toJsonText } from '../src/mirror/json.js';
import { openMirror } from '../src/mirror/open.js';
import { passageWriter } from '../src/mirror/passages.js';

export interface FixtureOptions {
  dataDir: string;
  meetings: number;
  /** Approximate transcript size per meeting, in bytes of JSON. */
  transcriptBytes: number;
  seed: number;
  /** Meetings whose transcript holds the rare word, spread over the set. */
  rareEvery: number;
  rareWord: string;
  /** 'zh': the text in Chinese, written without spaces (the CJK index's size; default English). */
  language?: 'en' | 'zh';
  /** The first meeting's notes: one paragraph of this many characters, `word` at 90% of it. */
  hugeNotes?: { chars: number; word: string };
}

export interface FixtureResult {
  path: string;
  /** Bytes of JSON text of every object mirrored (meetings, transcripts, action items, people, companies). */
  rawJsonBytes: number;
}

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON =
  'the a to and of we is that it for on in this be with have you our they will can as are so but just need next week team customer pricing proposal roadmap launch budget approval security review migration integration timeline contract renewal demo onboarding support response feedback design engineering sales marketing quarter numbers deck update plan risk pilot legal meeting notes follow up action item decision owner deadline scope release sprint backlog metrics dashboard hiring travel office'.split(
    ' ',
  );

const COMMON_ZH =
  '我们 你们 他们 这个 那个 需要 下周 团队 客户 价格 方案 路线图 发布 预算 审批 安全 审查 迁移 集成 时间表 合同 续约 演示 入职 支持 回复 反馈 设计 工程 销售 市场 季度 数字 更新 计划 风险 试点 法务 会议 记录 跟进 行动 事项 决定 负责人 截止 日期 范围 版本 冲刺 指标 看板 招聘 出差 办公室 的 了 是 在 和 也 就 都 还 要 会 可以 已经 没有 因为 所以 但是'.split(
    ' ',
  );

/** One paragraph (no blank line) of about `chars` characters, `word` in a sentence at 90% of it. */
function hugeParagraph(sentence: () => string, { chars, word }: { chars: number; word: string }): string {
  const parts: string[] = [];
  let length = 0;
  let placed = false;
  while (length < chars) {
    const part = !placed && length >= chars * 0.9 ? `The ${word} contract is signed.` : sentence();
    if (part.includes(word)) placed = true;
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join(' ');
}

export function buildFixture(options: FixtureOptions): FixtureResult {
  const rand = prng(options.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  // A long tail of rarer words after the common ones (roughly Zipf: small indexes far more often).
  const tail = Array.from({ length: 20_000 }, (_, i) => {
    let w = '';
    let n = i + 7;
    while (n > 0) {
      w += 'bcdfghjklmnprstvz'[n % 17]! + 'aeiou'[Math.floor(n / 17) % 5]!;
      n = Math.floor(n / 85);
    }
    return w;
  });
  const zh = options.language === 'zh';
  const word = (): string => {
    const r = rand();
    if (zh) return pick(COMMON_ZH);
    if (r < 0.75) return pick(COMMON);
    return tail[Math.floor(tail.length * rand() ** 3)]!;
  };
  const sentence = (): string => {
    const n = 8 + Math.floor(rand() * 18);
    const words = Array.from({ length: n }, word);
    if (zh) return `${words.join('')}。`;
    const s = words.join(' ');
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
  };
  const people = Array.from({ length: 400 }, (_, i) => ({
    id: i + 1,
    title: pick(['CEO', 'CTO', 'Designer', 'Account Executive', 'Staff Engineer', null]),
    companyId: 1000 + (i % 60),
    companyName: `Company ${i % 60}`,
    email: `person${i + 1}@company${i % 60}.example`,
    firstName: `First${i + 1}`,
    lastName: `Last${i + 1}`,
  }));
  const companies = Array.from({ length: 60 }, (_, i) => ({
    name: `Company ${i}`,
    avatarUrl: `https://img.example/${i}.png`,
    domain: `company${i}.example`,
  }));

  const path = `${options.dataDir}/default.db`;
  const mirror = openMirror({ profile: 'default', dataDir: options.dataDir, baseUrl: 'http://127.0.0.1:1' });
  const { db } = mirror;
  let raw = 0;
  const insMeeting = db.prepare(
    'INSERT INTO meetings(id, json, name, created_at, updated_at, position, seen_walk) VALUES (?, ?, ?, ?, ?, ?, 1)',
  );
  const insTranscript = db.prepare(
    'INSERT INTO transcripts(meeting_id, json, for_updated_at, fetched_at) VALUES (?, ?, ?, ?)',
  );
  const insItem = db.prepare(
    'INSERT INTO action_items(id, json, status, mine, position, seen_walk) VALUES (?, ?, ?, ?, ?, 1)',
  );
  const passages = passageWriter(db);
  const start = Date.UTC(2026, 10, 1);
  let itemId = 1;
  const batch = 250;
  for (let first = 0; first < options.meetings; first += batch) {
    db.transaction(() => {
      for (let i = first; i < Math.min(options.meetings, first + batch); i++) {
        const id = `mtg_${(i + 1).toString(16).padStart(12, '0')}`;
        const createdAt = new Date(start - i * 3_600_000 * 7).toISOString();
        const attendees = Array.from({ length: 2 + Math.floor(rand() * 5) }, () => {
          const p = pick(people);
          return {
            profileId: p.id,
            name: `${p.firstName} ${p.lastName}`,
            title: p.title,
            companyName: p.companyName,
            email: p.email,
            isCalendarEventOrganizer: false,
            isCalendarInvitee: true,
          };
        });
        const actionItems = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
          const a = pick(attendees);
          return {
            id: itemId++,
            title: sentence().slice(0, 60),
            description: sentence(),
            assignee: {
              profileId: a.profileId,
              name: a.name,
              title: a.title,
              companyName: a.companyName,
              email: a.email,
            },
            status: rand() < 0.6 ? 'PENDING' : 'DONE',
          };
        });
        const meeting = {
          id,
          name: `${pick(['Weekly sync', 'Roadmap review', 'Pricing call', 'Onboarding kickoff'])} ${i + 1}`,
          createdAt,
          updatedAt: createdAt,
          duration: 1800 + Math.floor(rand() * 3600),
          url: `https://meet.example/${id}`,
          recordingUrl: null,
          tags: rand() < 0.3 ? [{ id: 1 + (i % 5), name: `tag${1 + (i % 5)}`, description: null }] : [],
          icalUid: `${id}@calendar.example`,
          attendees,
          notes:
            i === 0 && options.hugeNotes
              ? hugeParagraph(sentence, options.hugeNotes)
              : Array.from({ length: 4 }, () => `- ${sentence()}`).join('\n\n'),
          privateNotes: '',
          actionItems,
          insights: {},
          linkAccess: 'Viewer',
        };
        const transcript: { speaker: string; text: string; timestamp: number }[] = [];
        let bytes = 2;
        let t = 0;
        const rare = i % options.rareEvery === 0;
        while (bytes < options.transcriptBytes) {
          let text = `${sentence()} ${sentence()}`;
          if (rare && transcript.length === 40)
            text = `${text} The ${options.rareWord} account needs a follow up.`;
          const entry = { speaker: pick(attendees).name, text, timestamp: Math.round(t * 100) / 100 };
          t += 4 + rand() * 20;
          transcript.push(entry);
          bytes += JSON.stringify(entry).length + 1;
        }
        const json = JSON.stringify(meeting);
        const transcriptJson = JSON.stringify(transcript);
        raw += Buffer.byteLength(json) + Buffer.byteLength(transcriptJson);
        insMeeting.run(id, json, meeting.name, createdAt, createdAt, i);
        insTranscript.run(id, transcriptJson, createdAt, createdAt);
        for (const a of actionItems) {
          const item = JSON.stringify({ ...a, meetingIds: [id] });
          raw += Buffer.byteLength(item);
          insItem.run(String(a.id), item, a.status, a.assignee.profileId === 1 ? 1 : 0, a.id);
        }
        passages.rewrite(id);
      }
    });
  }
  db.transaction(() => {
    const insPerson = db.prepare('INSERT INTO people(id, json, position, seen_walk) VALUES (?, ?, ?, 1)');
    people.forEach((p, i) => {
      const json = JSON.stringify(p);
      raw += Buffer.byteLength(json);
      insPerson.run(String(p.id), json, i);
    });
    const insCompany = db.prepare(
      'INSERT INTO companies(domain, json, position, seen_walk) VALUES (?, ?, ?, 1)',
    );
    companies.forEach((c, i) => {
      const json = JSON.stringify(c);
      raw += Buffer.byteLength(json);
      insCompany.run(c.domain, json, i);
    });
  });
  // One complete sync run and completed walks of every list, as `mtg sync` records them (its walk
  // identity: path, sorted query, all/mine): offline reads answer only from lists walked to the end.
  db.transaction(() => {
    const at = new Date(start).toISOString();
    const run = Number(
      db.prepare('INSERT INTO runs(started_at, finished_at, complete) VALUES (?, ?, 1)').run(at, at)
        .lastInsertRowid,
    );
    const insWalk = db.prepare(
      'INSERT INTO walks(resource, query, started_at, completed_at, run) VALUES (?, ?, ?, ?, ?)',
    );
    const walks: [string, { path: string; query?: object }, 'all' | 'mine'][] = [
      ['meetings', E.listMeetings({}), 'all'],
      ['action-items', E.listActionItems({ assigneeType: 'Anyone', status: 'ALL' }), 'all'],
      ['action-items', E.listActionItems({ status: 'ALL' }), 'mine'],
      ['people', E.listPeople({}), 'all'],
      ['companies', E.listCompanies({}), 'all'],
    ];
    for (const [resource, endpoint, which] of walks) {
      const query = Object.entries(endpoint.query ?? {})
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => a.localeCompare(b));
      insWalk.run(resource, toJsonText([endpoint.path, query, which]), at, at, run);
    }
  });
  db.pragma('wal_checkpoint(TRUNCATE)');
  mirror.close();
  return { path, rawJsonBytes: raw };
}

export { dataDir };
