/**
 * The CLI's exit codes. A module of their own: every command and the dispatcher (main.ts) use
 * them, and report.ts's formatters and exporters, which they once came with, are not needed by
 * help, version or a command that fails its flags.
 */
export const EXIT = { ok: 0, failed: 1, badInput: 2, interrupted: 130 } as const;
