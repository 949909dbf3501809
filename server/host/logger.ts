import type { Store } from "../store/index.ts";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

/**
 * Log lines go to the state database (served by `GET /v1/logs`) and, when
 * `echo` is given, to the terminal. Debug lines are stored but not echoed.
 */
export function createLogger(store: Store | undefined, echo?: (line: string) => void): Logger {
  const write = (level: LogLevel, msg: string, data?: Record<string, unknown>) => {
    try {
      store?.logs.append(level, msg, data);
    } catch (error) {
      // Logging never throws into its caller: with the store closed or busy, the line goes to stderr.
      process.stderr.write(`[${level}] ${msg} (not stored: ${error instanceof Error ? error.message : String(error)})\n`);
    }
    if (echo && level !== "debug") {
      const extra = data && Object.keys(data).length > 0 ? ` ${JSON.stringify(data)}` : "";
      echo(`[${level}] ${msg}${extra}`);
    }
  };
  return {
    debug: (msg, data) => write("debug", msg, data),
    info: (msg, data) => write("info", msg, data),
    warn: (msg, data) => write("warn", msg, data),
    error: (msg, data) => write("error", msg, data),
  };
}
