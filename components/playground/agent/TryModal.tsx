"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { getToken } from "../../api/auth-store.ts";
import { errorMessage } from "../../api/errors.ts";
import type { ChannelRouteInfo } from "../../api/types.ts";
import { Badge } from "../../ui/Badge.tsx";
import { Button } from "../../ui/Button.tsx";
import { CopyButton } from "../../ui/CopyButton.tsx";
import { JsonBlock } from "../../ui/JsonBlock.tsx";
import { Modal } from "../../ui/Modal.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { textareaClass } from "../../ui/styles.ts";
import { formatDuration } from "../../ui/format.ts";
import { useApi } from "../api-context.tsx";
import { callRoute, curlFor } from "../channels/route-call.ts";
import { useNavigation } from "../navigation.tsx";
import { exampleFromSchema } from "../schema/json-schema.ts";
import { SchemaFields } from "./SchemaFields.tsx";

function storageKey(base: string, channelId: string, method: string, path: string) {
  return `bdk.try.${base}.${channelId}.${method} ${path}`;
}

function initialBody(key: string, schema: unknown): string {
  try {
    const saved = window.localStorage.getItem(key);
    if (saved !== null) return saved;
  } catch {
    // No storage: fall back to the schema example.
  }
  return JSON.stringify(exampleFromSchema(schema), null, 2);
}

/** Invoke a custom channel route: body pre-filled from its schema, remembered per endpoint; curl; open the session it created. */
export function TryModal({ channelId, route, onClose }: { channelId: string; route: ChannelRouteInfo; onClose: () => void }) {
  const api = useApi();
  const nav = useNavigation();
  const method = (route.method ?? "POST").toUpperCase();
  const path = route.path ?? "/";
  const url = api.channelRouteUrl(channelId, path);
  const key = storageKey(api.base, channelId, method, path);
  const hasBody = method !== "GET" && method !== "HEAD";
  const [text, setText] = useState(() => (hasBody ? initialBody(key, route.bodySchema) : ""));

  const parsed = parseBody(text, hasBody);
  const send = useMutation({
    mutationFn: async () => {
      if (!parsed.ok) throw new Error(parsed.message);
      try {
        window.localStorage.setItem(key, text);
      } catch {
        // Remembering is a convenience only.
      }
      return callRoute(url, method, parsed.value);
    },
  });

  const result = send.data;
  return (
    <Modal
      title={
        <span className="flex items-center gap-2">
          Try <Badge tone="accent">{method}</Badge> <span className="truncate font-mono text-xs">{url}</span>
        </span>
      }
      onClose={onClose}
      footer={
        <>
          <CopyButton label="Copy as curl" text={() => curlFor(url, method, parsed.ok ? parsed.value : undefined, !!getToken())} />
          {hasBody ? (
            <Button size="sm" variant="ghost" onClick={() => setText(JSON.stringify(exampleFromSchema(route.bodySchema), null, 2))}>
              Reset body
            </Button>
          ) : null}
          <Button variant="primary" onClick={() => send.mutate()} disabled={send.isPending || !parsed.ok}>
            {send.isPending ? <Spinner className="size-3" /> : null} Send
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        {route.description ? <p className="text-sm text-fg-muted">{route.description}</p> : null}
        {hasBody ? (
          <div className="space-y-2">
            <label htmlFor="try-body" className="text-xs font-semibold tracking-wide text-fg-muted uppercase">
              JSON body
            </label>
            <textarea id="try-body" className={textareaClass} rows={8} spellCheck={false} value={text} onChange={(event) => setText(event.target.value)} />
            {!parsed.ok ? <p className="text-xs text-tone-danger">{parsed.message}</p> : null}
            {route.bodySchema ? <SchemaFields schema={route.bodySchema} /> : null}
          </div>
        ) : null}
        {send.isError ? <p className="text-sm text-tone-danger">{errorMessage(send.error)}</p> : null}
        {result ? (
          <div className="space-y-2" data-testid="try-result">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <Badge tone={result.ok ? "success" : "danger"}>{result.status}</Badge>
              <span className="text-xs text-fg-muted">{formatDuration(result.durationMs)}</span>
              {result.sessionId ? (
                <Button
                  size="sm"
                  variant="primary"
                  className="ml-auto"
                  onClick={() => {
                    nav.openSession(result.sessionId!);
                    onClose();
                  }}
                >
                  Open session
                </Button>
              ) : null}
            </div>
            {result.body !== null && result.body !== "" ? <JsonBlock value={result.body} tone={result.ok ? "neutral" : "error"} /> : <p className="text-xs text-fg-muted">Empty response body.</p>}
          </div>
        ) : null}
      </div>
    </Modal>
  );
}

function parseBody(text: string, hasBody: boolean): { ok: true; value: unknown } | { ok: false; message: string } {
  if (!hasBody) return { ok: true, value: undefined };
  if (!text.trim()) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, message: `Not valid JSON: ${errorMessage(err)}` };
  }
}
