/**
 * Per-session memory in the browser: the last event index seen (sessionStorage,
 * so a reload resumes after it), the rotating continuation token
 * (localStorage, so follow-ups work from any tab of this browser), and the
 * offline-model banner dismissed (sessionStorage: a new visit shows it again).
 */
function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: string): void {
  try {
    storage().setItem(key, value);
  } catch {
    // Storage full or disabled: the view still works, it just forgets on reload.
  }
}

const session = () => window.sessionStorage;
const local = () => window.localStorage;

export function readLastIndex(sessionId: string): number {
  const value = Number(read(session, `bdk.lastIndex.${sessionId}`));
  return Number.isInteger(value) ? value : -1;
}

export function writeLastIndex(sessionId: string, index: number): void {
  write(session, `bdk.lastIndex.${sessionId}`, String(index));
}

export function readContinuationToken(base: string, sessionId: string): string | null {
  return read(local, `bdk.ct.${base}.${sessionId}`);
}

export function writeContinuationToken(base: string, sessionId: string, token: string): void {
  write(local, `bdk.ct.${base}.${sessionId}`, token);
}

const BANNER_KEY = "bdk.scriptedBannerDismissed";

export function readBannerDismissed(): boolean {
  return read(session, BANNER_KEY) === "1";
}

export function writeBannerDismissed(): void {
  write(session, BANNER_KEY, "1");
}
