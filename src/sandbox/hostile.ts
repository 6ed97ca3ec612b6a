// Hostile strings planted in a few clearly named seed records, so that output-sanitizing tests
// (terminal control sequences, spreadsheet formula injection) have something real to find.
// Every other record is plain text.

export const HOSTILE_MEETING_ID = 'mtg_hostile_0001';
/** An action item assigned to "me" and PENDING, so it is in the default GET /action-items list. */
export const HOSTILE_ACTION_ITEM_ID = 3;
/** A person attending the hostile meeting. */
export const HOSTILE_PERSON_ID = 5;
/** A tag carried only by the hostile meeting. */
export const HOSTILE_TAG_ID = 6;

const ESC = '\u001b';
const BEL = '\u0007';

export const HOSTILE = {
  ansiRed: `${ESC}[31mRED ALERT${ESC}[0m`,
  /** OSC 8 hyperlink and OSC 0 window title, both terminated by BEL. */
  oscLink: `${ESC}]8;;https://evil.example/${BEL}click me${ESC}]8;;${BEL}`,
  oscTitle: `${ESC}]0;pwned${BEL}`,
  bell: `ding${BEL}${BEL}`,
  clearScreen: `${ESC}[2J${ESC}[H`,
  c1Csi: '\u009b31mC1 red',
  carriageReturn: 'looks fine\rOVERWRITTEN',
  formulaEq: '=HYPERLINK("https://evil.example","click")',
  formulaPlus: '+1+1',
  formulaMinus: "-2+3+cmd|' /C calc'!A0",
  formulaAt: '@SUM(A1:A9)',
  leadingTab: '\tstarts with a tab',
  /** A right-to-left override that makes the text read otherwise on screen, and a zero-width space. */
  bidi: 'Pay \u202eevil\u202c in\u200bvoice',
} as const;
