import { describe, expect, it } from 'vitest';
import { createChalk } from '../../src/output/color.js';
import { renderInline, renderMarkdown, visibleWidth, wrap } from '../../src/output/markdown.js';

const ESC = '\u001b';
const plain = (md: string, width = 0) => renderMarkdown(md, { color: false, width });
const colored = (md: string) => renderMarkdown(md, { color: true });

const NOTES = [
  '# Kickoff — Acme',
  '',
  '## Summary',
  '',
  '- We agreed on **the launch** date.',
  '  - nested item with `code`',
  '* star bullet',
  '',
  '1. **Owner:** finalize *pricing*',
  '2) second',
  '',
  '> *Next check-in* in 2 weeks. See [the doc](https://docs.example/x).',
  '',
  '---',
  '```',
  'const x = 1; // **not bold**',
  '```',
  '',
  '',
  'Escaped \\*stars\\* and snake_case_name.',
].join('\n');

describe('renderMarkdown without color', () => {
  it('drops the markers and keeps clean, readable text', () => {
    expect(plain(NOTES)).toBe(
      [
        'Kickoff — Acme',
        '',
        'Summary',
        '',
        '• We agreed on the launch date.',
        '  ◦ nested item with code',
        '• star bullet',
        '',
        '1. Owner: finalize pricing',
        '2) second',
        '',
        '│ Next check-in in 2 weeks. See the doc (https://docs.example/x).',
        '',
        '─'.repeat(40),
        '    const x = 1; // **not bold**',
        '',
        'Escaped *stars* and snake_case_name.',
      ].join('\n'),
    );
  });

  it('has no escape codes at all', () => {
    expect(plain(NOTES)).not.toContain(ESC);
  });

  it('strips terminal control sequences from the source', () => {
    const hostile = `# Title ${ESC}[2J${ESC}[H\n\n- ${ESC}]8;;https://evil.example/\u0007click${ESC}]8;;\u0007\n- ok\u0007`;
    const out = plain(hostile);
    expect(out).toBe('Title\n\n• click\n• ok');
    expect(renderMarkdown(hostile, { color: true })).not.toMatch(/\u001b\[2J|\u001b\]|\u0007/);
  });

  it('indents every line and wraps with a hanging indent', () => {
    const out = renderMarkdown('- one two three four five six', { color: false, width: 14, indent: '  ' });
    expect(out).toBe('  • one two\n    three four\n    five six');
  });

  it('collapses runs of blank lines and trims the ends', () => {
    expect(plain('\n\n\npara one\n\n\n\npara two\n\n')).toBe('para one\n\npara two');
  });
});

describe('renderMarkdown with color', () => {
  it('makes big headings bold and underlined, small ones bold, strong bold and code cyan', () => {
    const c = createChalk(true);
    const out = colored('# Head\n### Small\n\nSome **strong** and `code`.');
    expect(out).toContain(c.bold.underline('Head'));
    expect(out).toContain(c.bold('Small'));
    expect(out).not.toContain(c.underline('Small'));
    expect(out).toContain(c.bold('strong'));
    expect(out).toContain(c.cyan('code'));
    expect(out).not.toContain('**');
    expect(out).not.toContain('`');
  });

  it('nests emphasis inside strong', () => {
    const c = createChalk(true);
    expect(renderInline('**a *b* c**', c)).toBe(c.bold(`a ${c.italic('b')} c`));
  });
});

describe('wrap', () => {
  it('measures width without style codes', () => {
    const c = createChalk(true);
    expect(visibleWidth(c.bold('abc'))).toBe(3);
    expect(wrap(`${c.bold('aaaa')} bbbb cccc`, 9, '', '')).toEqual([`${c.bold('aaaa')} bbbb`, 'cccc']);
  });

  it('keeps a word longer than the line whole', () => {
    expect(wrap('x https://a.very.long.example/path y', 10, '', '')).toEqual([
      'x',
      'https://a.very.long.example/path',
      'y',
    ]);
  });
});

describe('a server paragraph of millions of characters', () => {
  it('renders into hundreds of thousands of lines without overflowing the call stack', () => {
    // 200,000 words of 6 letters at width 8: a line each (a server's 10 MB paragraph at 80 columns did this).
    const paragraph = Array.from({ length: 200_000 }, (_, i) => `w${10_000 + (i % 90_000)}`).join(' ');
    const lines = plain(paragraph, 8).split('\n');
    expect(lines).toHaveLength(200_000);
    expect(lines.slice(0, 2)).toEqual(['w10000', 'w10001']);
  });
});
