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
};

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
