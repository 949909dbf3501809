"use client";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { getAuthState, getServerAuthState, setToken, subscribeAuth } from "../../api/auth-store.ts";
import { KeyIcon } from "../../ui/icons.tsx";
import { cx } from "../../ui/cx.ts";

/**
 * The navbar bearer token. Saved on Enter or blur; after a 401 it turns
 * amber and takes focus so the user knows where to paste the token.
 */
export function TokenField() {
  const auth = useSyncExternalStore(subscribeAuth, getAuthState, getServerAuthState);
  const [value, setValue] = useState(auth.token);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => setValue(auth.token), [auth.token]);
  useEffect(() => {
    if (auth.needsToken) input.current?.focus();
  }, [auth.needsToken]);

  const save = () => {
    if (value.trim() !== auth.token) setToken(value);
  };

  return (
    <form
      className="relative flex items-center"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <label htmlFor="bdk-token" className="sr-only">
        Bearer token
      </label>
      <KeyIcon className={cx("pointer-events-none absolute left-2.5 size-3.5", auth.needsToken ? "text-mark-warning" : "text-fg-dim")} />
      <input
        ref={input}
        id="bdk-token"
        type="password"
        autoComplete="off"
        spellCheck={false}
        value={value}
        placeholder={auth.needsToken ? "Token required" : "Bearer token"}
        title={auth.needsToken ? "The server answered 401: paste its bearer token" : "Sent as Authorization: Bearer (stored in this browser)"}
        onChange={(event) => setValue(event.target.value)}
        onBlur={save}
        className={cx(
          "h-8 w-36 rounded-md border bg-surface-raised pr-2 pl-8 font-mono text-xs sm:w-44",
          "focus-visible:outline-none focus-visible:ring-2",
          auth.needsToken
            ? "border-tone-warning-edge ring-2 ring-tone-warning-edge/30 placeholder:text-tone-warning-placeholder focus-visible:ring-tone-warning-edge/50"
            : "border-line-strong focus-visible:border-accent-bright focus-visible:ring-accent-bright/30",
        )}
      />
    </form>
  );
}
