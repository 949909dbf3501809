import { diag, DiagLogLevel } from "@opentelemetry/api";
import type { Logger } from "../host/logger.ts";

/**
 * The SDK reports export failures (a collector down, a 4xx) through its
 * process-wide `diag` channel: they go to the log of every agent exporting
 * from this process, each distinct message once.
 */
const diagnosticLoggers = new Set<Logger>();
const warned = new WeakMap<Logger, Set<string>>();

let diagnosticsRouted = false;

/** Sends the SDK's warnings and errors to `logger` (too) until the returned function is called. */
export function routeDiagnostics(logger: Logger): () => void {
  if (!diagnosticsRouted) {
    diagnosticsRouted = true;
    const report = (message: string, ...args: unknown[]) => {
      const text = [message, ...args].map(diagnosticText).join(" ").slice(0, 500);
      for (const target of diagnosticLoggers) warnOnce(target, `OpenTelemetry: ${text}`);
    };
    const ignore = () => {};
    diag.setLogger({ error: report, warn: report, info: ignore, debug: ignore, verbose: ignore }, DiagLogLevel.WARN);
  }
  diagnosticLoggers.add(logger);
  return () => diagnosticLoggers.delete(logger);
}

/** The SDK's error handler hands over exceptions as JSON (`{"stack":…,"message":…}`): keep the message. */
function diagnosticText(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value !== "string") return JSON.stringify(value);
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === "object" && parsed !== null && typeof (parsed as { message?: unknown }).message === "string") {
      return (parsed as { message: string }).message;
    }
  } catch {
    // plain text
  }
  return value;
}

/** A warning each logger shows once (and at most a hundred distinct ones): a collector down for a day is one line. */
export function warnOnce(logger: Logger, message: string): void {
  let seen = warned.get(logger);
  if (!seen) {
    seen = new Set();
    warned.set(logger, seen);
  }
  if (seen.has(message) || seen.size > 100) return;
  seen.add(message);
  logger.warn(message);
}
