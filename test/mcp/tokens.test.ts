// The token estimate that bounds every MCP result holds against real tokenizers (cl100k and o200k,
// byte-pair like the assistants' own), for every script: it never says less than 0.9 of what they
// count, so 20,000 estimated stays under the 25,000-token cap of common clients.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/mcp/tokens.js';
import { realTokens, tokenizers } from '../helpers/real-tokens.js';

const SAMPLES: Record<string, string> = {
  English:
    'We decided that the remote control should have fewer buttons; the marketing team said younger users prefer a simple look, and the budget is twelve and a half euros. '.repeat(
      40,
    ),
  Chinese:
    '我们今天讨论了遥控器的按钮设计，决定把音量键放在侧面。市场部认为年轻用户更喜欢简单的外观，预算是十二点五欧元。'.repeat(
      40,
    ),
  Japanese: '今日はリモコンのボタンについて話しました。カタカナとひらがなが混ざった文章です。'.repeat(40),
  Korean: '우리는 리모컨의 버튼 디자인에 대해 논의했습니다. 예산은 십이 유로입니다. '.repeat(40),
  Russian: 'Мы решили, что пульт должен иметь меньше кнопок, а бюджет составляет двенадцать евро. '.repeat(
    30,
  ),
  emoji: '👍🎉🚀😀👨‍👩‍👧‍👦🇩🇪 ok '.repeat(100),
  'JSON-heavy': JSON.stringify(
    Array.from({ length: 60 }, (_, i) => ({
      id: `mtg_${i}abc`,
      speaker: 'Project Manager',
      text: 'Okay . Um yeah .',
      timestamp: i * 15,
      createdAt: '2024-01-01T00:00:00.000Z',
      tags: [],
      mine: false,
    })),
  ),
  base64: randomBytes(3000).toString('base64'),
  hex: randomBytes(3000).toString('hex'),
  'random letters': Array.from({ length: 2000 }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join(
    '',
  ),
  'escaped controls': JSON.stringify('\u009d'.repeat(2000) + '\u0000\u001b[31m'.repeat(300)),
  punctuation: '!@#$%^&*()_+-=[]{}|;:,.<>/?~`'.repeat(100),
  // Scripts of two-byte letters that tokenizers merge little: counted one token a letter, an
  // Armenian page went out at twice the bound.
  Armenian: 'Մենք որոշեցինք, որ հեռակառավարման վահանակը պետք է ունենա ավելի քիչ կոճակներ։ '.repeat(30),
  Greek:
    'Αποφασίσαμε ότι το τηλεχειριστήριο πρέπει να έχει λιγότερα κουμπιά και ο προϋπολογισμός είναι δώδεκα ευρώ. '.repeat(
      25,
    ),
  Hebrew: 'החלטנו שלשלט צריכים להיות פחות כפתורים, והתקציב הוא שנים עשר יורו. '.repeat(40),
  Arabic: 'قررنا أن جهاز التحكم عن بعد يجب أن يحتوي على أزرار أقل، والميزانية اثنا عشر يورو. '.repeat(35),
  Czech:
    'Rozhodli jsme se, že ovladač by měl mít méně tlačítek a rozpočet je dvanáct eur. Příliš žluťoučký kůň úpěl ďábelské ódy. '.repeat(
      25,
    ),
  // Hostile text as a tool's JSON carries it: stacked combining marks, random letters of each
  // two-byte block, quotes, backslashes, controls and lone surrogates escaped.
  'combining marks': `Z${'\u0301\u0316\u0337\u0352\u0361\u0323'.repeat(3)}algo `.repeat(150),
  'random two-byte letters': randomChars(3000, 0x80, 0x7ff),
  'random Cyrillic': randomChars(3000, 0x400, 0x4ff),
  'random Russian letters': randomChars(3000, 0x410, 0x44f),
  'random Latin-1 and Greek': randomChars(1500, 0xa0, 0xff) + randomChars(1500, 0x386, 0x3ce),
  'escaped quotes and backslashes': JSON.stringify(
    JSON.stringify({ said: 'he said "no" \\ "yes"' }).repeat(150),
  ),
  'escaped lone surrogates': JSON.stringify('\ud800x\udc00 '.repeat(500)),
};

/** `n` characters from `from` to `to`, in a fixed pseudo-random order. */
function randomChars(n: number, from: number, to: number): string {
  let seed = 12_345;
  let out = '';
  for (let i = 0; i < n; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    out += String.fromCharCode(from + Math.floor((seed / 2_147_483_648) * (to - from + 1)));
  }
  return out;
}

describe('estimateTokens', () => {
  for (const [script, text] of Object.entries(SAMPLES)) {
    it(`${script}: at least 0.9 of what cl100k and o200k count, at most 2.1 times`, () => {
      const real = realTokens(text);
      const estimate = estimateTokens(text);
      expect(estimate).toBeGreaterThanOrEqual(0.9 * real);
      expect(estimate).toBeLessThanOrEqual(2.1 * real);
    });
  }
});

describe('realTokens (test/helpers/real-tokens.ts)', () => {
  it('counts what js-tiktoken encodes, for every sample and a piece repeated', () => {
    // The first 400 characters of each sample (js-tiktoken's own encode is quadratic in a piece's
    // length), then a text whose pieces repeat, counted twice (the second time from memory).
    const texts = Object.values(SAMPLES).map((text) => Array.from(text).slice(0, 400).join(''));
    texts.push('Ümläuts and 123456 numbers\n\n  spaced   out ', SAMPLES.Chinese!.slice(0, 300));
    for (const text of [...texts, ...texts]) {
      const expected = Math.max(...tokenizers().map((t) => t.encode(text).length));
      expect(realTokens(text), text).toBe(expected);
    }
  });
});
