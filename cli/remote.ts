import type { AnyBdkEvent } from "../server/protocol/events.ts";

/** A minimal client of a running server's `/v1` API, for `--url`. */
export class RemoteAgent {
  private readonly base: string;

  constructor(url: string, slug: string | undefined, private readonly token: string | undefined) {
    this.base = `${url.replace(/\/+$/, "")}${slug ? `/${slug}` : ""}/v1`;
  }

  async request<T>(method: string, route: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${route}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new Error(`cannot reach ${this.base}: ${(error as Error).message}`);
    }
    const payload = (await response.json().catch(() => ({}))) as T & { ok?: boolean; error?: string; message?: string };
    if (!response.ok) {
      throw new Error(`${method} ${this.base}${route} failed (${response.status} ${payload.error ?? ""}): ${payload.message ?? ""}`);
    }
    return payload;
  }

  /** Streams a session's events from `from`, calling `onEvent` for each, until `until` says stop. */
  async follow(sessionId: string, from: number, onEvent: (event: AnyBdkEvent) => boolean): Promise<void> {
    const response = await fetch(`${this.base}/session/${sessionId}/stream?startIndex=${from}`, {
      headers: this.token ? { authorization: `Bearer ${this.token}` } : {},
    });
    if (!response.ok || !response.body) throw new Error(`cannot stream session ${sessionId} (${response.status})`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (line.trim() && onEvent(JSON.parse(line) as AnyBdkEvent)) {
          await reader.cancel();
          return;
        }
      }
    }
  }
}
