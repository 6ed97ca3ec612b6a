// Company domains, as people list --domain and companies view take them.

import { UsageError } from '../../shared/errors.js';

/** A company domain such as acme.com (no scheme, path or @). */
export function domainName(value: string, what: string): string {
  const trimmed = value.trim().toLowerCase();
  if (!/^[^\s/@:?#]+\.[^\s/@:?#]+$/.test(trimmed)) {
    throw new UsageError(`${what} must be a domain name such as acme.com, got "${value}"`);
  }
  return trimmed;
}
