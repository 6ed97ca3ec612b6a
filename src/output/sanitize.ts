// Server text is untrusted: a meeting title could carry escape sequences that repaint the screen,
// retitle the terminal, or plant clickable links (OSC 8). Everything a terminal would interpret is
// removed before it is printed; \n and \t survive so multi-line renderers keep their layout.

// Whole sequences go first so their parameters ("31m", "0;title") do not leak into the output.
// String-type sequences (OSC, DCS, SOS, PM, APC; 7-bit and 8-bit introducers) run to BEL or ST.
const STRING_SEQ =
  /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)/g;
// CSI: ESC [ or 8-bit CSI, parameter bytes, intermediate bytes, one final byte.
const CSI_SEQ = /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]/g;
// Other escape sequences: ESC, intermediates, final byte (ESC c, ESC ( B, ESC 7 ...).
const ESC_SEQ = /\u001b[\u0020-\u002f]*[\u0030-\u007e]/g;
// Whatever is left: C0 except \t and \n, DEL, C1 (including lone ESC and unterminated introducers).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Cheap pre-check so the common case (plain text) allocates nothing.
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Strips terminal control sequences and control characters other than \n and \t. Idempotent. */
export function sanitizeForTerminal(s: string): string {
  if (!ANY_CONTROL.test(s)) return s;
  return s.replace(STRING_SEQ, '').replace(CSI_SEQ, '').replace(ESC_SEQ, '').replace(CONTROL, '');
}

/** For one-line contexts (table cells): sanitized, and any run of line breaks or tabs becomes one space. */
export function sanitizeOneLine(s: string): string {
  return sanitizeForTerminal(s).replace(/[\t\n]+/g, ' ');
}
