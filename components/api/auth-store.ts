/**
 * The navbar bearer token, kept in localStorage, and a flag raised when the
 * server answers 401 so the navbar can ask for it.
 */
export const TOKEN_KEY = "bdk.bearerToken";

export interface AuthState {
  token: string;
  /** The last request was refused with 401 and no token change happened since. */
  needsToken: boolean;
}

const listeners = new Set<() => void>();
let state: AuthState | undefined;
const SERVER_STATE: AuthState = { token: "", needsToken: false };

function load(): AuthState {
  if (state) return state;
  let token = "";
  try {
    token = window.localStorage.getItem(TOKEN_KEY) ?? "";
  } catch {
    // Storage can be disabled (private mode); the token then lives in memory only.
  }
  state = { token, needsToken: false };
  return state;
}

function update(next: AuthState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function getAuthState(): AuthState {
  return typeof window === "undefined" ? SERVER_STATE : load();
}

export function getServerAuthState(): AuthState {
  return SERVER_STATE;
}

export function getToken(): string {
  return getAuthState().token;
}

export function setToken(token: string): void {
  const trimmed = token.trim();
  try {
    if (trimmed) window.localStorage.setItem(TOKEN_KEY, trimmed);
    else window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    // See load(): memory only.
  }
  update({ token: trimmed, needsToken: false });
}

export function markTokenRequired(): void {
  const current = load();
  if (!current.needsToken) update({ ...current, needsToken: true });
}

export function subscribeAuth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
