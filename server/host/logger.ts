import { AsyncLocalStorage } from "node:async_hooks";
import { format, stripVTControlCharacters } from "node:util";
import type { AsyncStore } from "../store/async-store.ts";

export type LogLevel = "debug" | "info" | "warn" | "error";

/** How echoed lines look: `[level] message {fields}` for people, one JSON object a line for log shippers. */
export type LogFormat = "text" | "json";

export const LOG_FORMATS: readonly LogFormat[] = ["text", "json"];

export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

/** A logger that stores its lines: `flush` settles once every line logged so far is stored (or reported on stderr). */
export interface StoringLogger extends Logger {
  flush(): Promise<void>;
}

export interface LoggerOptions {
  /** Default `text`. */
  format?: LogFormat;
  /** Named on every JSON line (`agent`). */
  agent?: string;
}

/**
 * Log lines go to the state database (served by `GET /v1/logs`, whatever
 * the format) and, when `echo` is given, to the terminal. Debug lines are
 * stored but not echoed. A caller never waits for the store: lines are
 * written one after another, in the order logged, behind the caller's back.
 */
export function createLogger(store: AsyncStore | undefined, echo?: (line: string) => void, options: LoggerOptions = {}): StoringLogger {
  // Writes run in the context the logger was made in, never in a caller's
  // transaction: a line about a failure must not be rolled back with it.
  const outside = AsyncLocalStorage.snapshot();
  let stored: Promise<void> = Promise.resolve();
  const write = (level: LogLevel, msg: string, data?: Record<string, unknown>) => {
    if (store) {
      stored = stored.then(() =>
        outside(() => store.logs.append(level, msg, data)).then(
          () => undefined,
          // Logging never fails its caller: with the store closed or unreachable, the line goes to stderr.
          (error: unknown) => void process.stderr.write(`[${level}] ${msg} (not stored: ${error instanceof Error ? error.message : String(error)})\n`),
        ),
      );
    }
    if (echo && level !== "debug") echo(formatLogLine({ level, message: msg, agent: options.agent, data }, options.format));
  };
  return {
    debug: (msg, data) => write("debug", msg, data),
    info: (msg, data) => write("info", msg, data),
    warn: (msg, data) => write("warn", msg, data),
    error: (msg, data) => write("error", msg, data),
    flush: () => stored,
  };
}

/** Keys of a line's data that name its session and turn, lifted to the top of a JSON line. */
const SESSION_KEYS = ["sessionId", "session"];
const TURN_KEYS = ["turnId", "turn"];

/**
 * One echoed line. JSON lines are `{ time, level, agent?, session?, turn?,
 * message, fields? }`, one object a line, so a shipper can index a session's
 * lines without parsing messages.
 */
export function formatLogLine(
  line: { level: LogLevel; message: string; agent?: string; data?: Record<string, unknown> },
  format: LogFormat = "text",
): string {
  const data = line.data ?? {};
  if (format === "text") {
    const extra = Object.keys(data).length > 0 ? ` ${JSON.stringify(data)}` : "";
    return `[${line.level}] ${line.message}${extra}`;
  }
  const fields: Record<string, unknown> = { ...data };
  const session = liftString(fields, SESSION_KEYS);
  const turn = liftString(fields, TURN_KEYS);
  return JSON.stringify({
    time: new Date().toISOString(),
    level: line.level,
    ...(line.agent ? { agent: line.agent } : {}),
    ...(session ? { session } : {}),
    ...(turn ? { turn } : {}),
    message: line.message,
    ...(Object.keys(fields).length > 0 ? { fields } : {}),
  });
}

function liftString(fields: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) {
    const value = fields[key];
    if (typeof value !== "string") continue;
    delete fields[key];
    return value;
  }
  return undefined;
}

const CONSOLE_LEVELS = { log: "info", info: "info", debug: "debug", warn: "warn", error: "error" } as const;

/**
 * Under `--log-format json`, what is printed with `console.*` (Next.js's own
 * lines, a tool's `console.log`) becomes JSON lines too, so a log shipper
 * reads one format. Returns the function that puts the console back.
 */
export function consoleAsJsonLines(write: (level: LogLevel, line: string) => void): () => void {
  const original = { ...console };
  for (const [method, level] of Object.entries(CONSOLE_LEVELS)) {
    console[method as keyof typeof CONSOLE_LEVELS] = (...args: unknown[]) =>
      write(level, formatLogLine({ level, message: stripVTControlCharacters(format(...args)) }, "json"));
  }
  return () => Object.assign(console, original);
}
