// Public API of the sandbox: a local in-memory server of the whole Meeting Notes API.
export { type ChurnRate, type ChurnReport, parseChurn, type SandboxSnapshot } from './churn.js';
export { runSandboxCommand, type SandboxCommandIo } from './command.js';
export { DEFAULT_SIZES, type Sizes } from './data.js';
export { type FaultKind, type FaultRate, parseFaults } from './faults.js';
export { DataFileError, loadDataFile } from './file-data.js';
export {
  HOSTILE,
  HOSTILE_ACTION_ITEM_ID,
  HOSTILE_MEETING_ID,
  HOSTILE_PERSON_ID,
  HOSTILE_TAG_ID,
} from './hostile.js';
export { type LimitWindow, parseLimits } from './ratelimit.js';
export {
  REVOKED_KEY_SUFFIX,
  type RecordedRequest,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
} from './server.js';
