import type { AnyBdkEvent } from "../protocol/events.ts";

export const NDJSON_HEADERS = {
  "content-type": "application/x-ndjson; charset=utf-8",
  "cache-control": "no-store",
  "x-accel-buffering": "no",
};

const encoder = new TextEncoder();

export function toNdjson(events: readonly AnyBdkEvent[]): string {
  let text = "";
  for (const event of events) text += `${JSON.stringify(event)}\n`;
  return text;
}

export interface FollowOptions {
  /** Starts delivery; returns the function that stops it. */
  subscribe(deliver: (events: readonly AnyBdkEvent[]) => void): () => void;
  /** True when the stream should close after this event (follow=false closes after replay). */
  isLast?(event: AnyBdkEvent): boolean;
  keepaliveMs?: number;
  signal?: AbortSignal;
}

/** An NDJSON response body: replayed and live events, a bare newline as keepalive. */
export function eventStream(options: FollowOptions): ReadableStream<Uint8Array> {
  let stop: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const cleanup = () => {
    stop?.();
    stop = undefined;
    if (timer) clearInterval(timer);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        controller.close();
      };
      const unsubscribe = options.subscribe((events) => {
        if (closed) return;
        controller.enqueue(encoder.encode(toNdjson(events)));
        if (options.isLast && events.some(options.isLast)) close();
      });
      if (closed) {
        unsubscribe();
        return;
      }
      stop = unsubscribe;
      timer = setInterval(() => controller.enqueue(encoder.encode("\n")), options.keepaliveMs ?? 15_000);
      timer.unref?.();
      options.signal?.addEventListener("abort", close, { once: true });
    },
    cancel: cleanup,
  });
}
