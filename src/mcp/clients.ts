// The assistants `mtg mcp install` knows, on their own: the command's declaration
// (src/commands/mcp/spec.ts, loaded for help and completion) names them without loading the
// installer, and the installer (install.ts) takes them from here.

export const CLIENT_NAMES = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'windsurf'] as const;
