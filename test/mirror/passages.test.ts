// A heading alone is not a passage (schema 9): it is indexed and shown with the paragraph it
// introduces, so "what did we decide" finds the decisions, not "## Decisions" with nothing to quote.

import { describe, expect, it } from 'vitest';
import { paragraphs } from '../../src/mirror/passages.js';

describe('paragraphs of notes', () => {
  it('keeps a paragraph of headings with the paragraph after it', () => {
    const notes =
      '# Pricing review\n\n## Decisions\n\n1. Finalize the pricing proposal\n\nNo other business.';
    expect(paragraphs(notes)).toEqual([
      '# Pricing review\n## Decisions\n1. Finalize the pricing proposal',
      'No other business.',
    ]);
  });

  it('takes a bold line alone or a short label ending in a colon for a heading', () => {
    expect(paragraphs('**Next steps**\n\n- Send the quote\n\nRisks:\n\n- Budget')).toEqual([
      '**Next steps**\n- Send the quote',
      'Risks:\n- Budget',
    ]);
  });

  it('leaves text that is not a heading, and a last heading that introduces nothing, alone', () => {
    expect(paragraphs('We agreed: ship it.\n\n#hashtag is not a heading\n\n## Open questions')).toEqual([
      'We agreed: ship it.',
      '#hashtag is not a heading',
      '## Open questions',
    ]);
  });
});
