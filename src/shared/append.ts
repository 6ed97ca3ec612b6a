/**
 * Appends `items` to `target` one by one: `target.push(...items)` passes each item as an argument,
 * and a server's 10 MB paragraph wrapped into 140,000 lines overflows the call stack.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}
