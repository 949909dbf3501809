"use client";
import { memo, useMemo, useState, type ReactElement } from "react";
import { cx } from "./cx.ts";
import { prettyJson } from "./format.ts";

const LIMIT = 20_000;
const TOKEN = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/** Pretty JSON with light colouring; very large values are cut until asked for. */
export const JsonBlock = memo(function JsonBlock({
  value,
  className,
  tone = "neutral",
}: {
  value: unknown;
  className?: string;
  tone?: "neutral" | "error";
}) {
  const text = useMemo(() => prettyJson(value), [value]);
  const [full, setFull] = useState(false);
  const shown = full || text.length <= LIMIT ? text : text.slice(0, LIMIT);
  const nodes = useMemo(() => (typeof value === "string" ? [shown] : highlight(shown)), [shown, value]);
  return (
    <div className={cx("relative", className)}>
      <pre
        className={cx(
          "max-h-80 overflow-auto rounded-md px-3 py-2 font-mono text-xs leading-relaxed whitespace-pre-wrap break-words scrollbar-thin",
          tone === "error"
            ? "bg-tone-danger-soft text-tone-danger-strong"
            : "bg-surface-well text-fg",
        )}
      >
        {nodes}
      </pre>
      {shown.length < text.length ? (
        <button type="button" className="mt-1 text-xs text-accent-fg hover:underline" onClick={() => setFull(true)}>
          Show all {Math.round(text.length / 1000)}k characters
        </button>
      ) : null}
    </div>
  );
});

function highlight(text: string) {
  const out: Array<string | ReactElement> = [];
  let last = 0;
  let key = 0;
  for (const match of text.matchAll(TOKEN)) {
    const at = match.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const [whole, str, colon, literal, num] = match;
    if (str !== undefined && colon !== undefined) {
      out.push(<span key={key++} className="text-accent-fg">{str}</span>, colon);
    } else if (str !== undefined) {
      out.push(<span key={key++} className="text-tone-success">{str}</span>);
    } else if (literal !== undefined) {
      out.push(<span key={key++} className="text-tone-warning">{literal}</span>);
    } else if (num !== undefined) {
      out.push(<span key={key++} className="text-tone-info">{num}</span>);
    } else {
      out.push(whole);
    }
    last = at + whole.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
