// MTG_OFFLINE's meaning, in one place: the Context decides by it, and the standalone binary's start
// (sea-cli.ts) guesses a command's kind by it before anything else is loaded.

/** Whether MTG_OFFLINE asks for offline reads (1, true or yes, any case). */
export function offlineFromEnv(env: Record<string, string | undefined>): boolean {
  return /^(1|true|yes)$/i.test(env.MTG_OFFLINE ?? '');
}
