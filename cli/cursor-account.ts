/**
 * What the published @cursor/bdk does through a Cursor account, which the
 * open kit cannot: each is answered with one line naming the feature and
 * what to use instead (exit 2, like any command or flag `bdk` does not have).
 * `cursorAccount` in agent.ts is answered by the loader.
 */
const GUIDE = "See `bdk docs migrating-from-cursor-bdk`.";

export const CURSOR_ACCOUNT_COMMANDS: Record<string, string> = {
  login: `Cursor account sign-in is not part of the open kit, which needs no account: set a model key such as XAI_API_KEY. ${GUIDE}`,
  logout: `Cursor account sign-in is not part of the open kit, which needs no account. ${GUIDE}`,
  deploy: `deploying through a Cursor account is not part of the open kit: run \`bdk serve\` on your own host (\`bdk manifest\` lists what it needs). ${GUIDE}`,
};

export const CURSOR_ACCOUNT_FLAGS: Record<string, string> = {
  "cursor-events": `--cursor-events is a Cursor account feature, not part of the open kit: \`bdk run --json\` prints a turn's events and GET /v1/session/:id/stream serves them. ${GUIDE}`,
};

/** The message for a Cursor-account flag among the arguments (before any `--`), if there is one. */
export function cursorAccountFlag(argv: string[]): string | undefined {
  const end = argv.indexOf("--");
  for (const arg of end === -1 ? argv : argv.slice(0, end)) {
    const name = /^--([^=]+)/.exec(arg)?.[1];
    if (name && name in CURSOR_ACCOUNT_FLAGS) return CURSOR_ACCOUNT_FLAGS[name];
  }
  return undefined;
}
