// The config file's own error, in a module of its own: the settings (which report it) and the store
// (which raises it) both need it, and neither should load the other for it.

import { UsageError } from '../shared/errors.js';

/** The config file cannot be used as it is (not JSON, wrong types): a usage error naming the file. */
export class ConfigFileError extends UsageError {}
