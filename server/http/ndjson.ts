
export const NDJSON_HEADERS = {
  "content-type": "application/x-ndjson; charset=utf-8",
  "cache-control": "no-store",
  "x-accel-buffering": "no",
};

const encoder = new TextEncoder();


export interface FollowOptions {
  /** Starts delivery of NDJSON text; resolves with the function that stops it. `end` sends a last text and closes the stream. */
  subscribe(deliver: (text: string) => void, end: (lastText: string) => void): Promise<() => void>;
  keepaliveMs?: number;
  /** The keepalive's line (one JSON object and a newline), else a bare newline; a failure sends the bare newline. */
  keepalive?: () => Promise<string | undefined>;
}

/**
 * An NDJSON response body: replayed and live events, and every
 * `keepaliveMs` a keepalive (`options.keepalive`'s line, or a bare newline);
 * cancelling it (the client went away) stops the follow.
 */
export function eventStream(options: FollowOptions): ReadableStream<Uint8Array> {
  let stop: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
  const cleanup = () => {
    cancelled = true;
    stop?.();
    stop = undefined;
    if (timer) clearInterval(timer);
  };
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        controller.close();
      };
      const unsubscribe = await options.subscribe(
        (text) => {
          if (!closed && !cancelled) controller.enqueue(encoder.encode(text));
        },
        (lastText) => {
          if (closed || cancelled) return;
          controller.enqueue(encoder.encode(lastText));
          close();
        },
      );
      // Cancelled (or ended) while the subscription was being set up.
      if (closed || cancelled) {
        unsubscribe();
        return;
      }
      stop = unsubscribe;
      let pinging = false;
      const ping = async () => {
        // A slow store skips a keepalive rather than stacking them.
        if (pinging) return;
        pinging = true;
        let line = "\n";
        try {
          line = (await options.keepalive?.()) ?? line;
        } catch {
          // The status could not be read: the bare newline still keeps the connection open.
        } finally {
          pinging = false;
        }
        if (!closed && !cancelled) controller.enqueue(encoder.encode(line));
      };
      timer = setInterval(() => void ping(), options.keepaliveMs ?? 15_000);
      timer.unref?.();
    },
    cancel: cleanup,
  });
}
