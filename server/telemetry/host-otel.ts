import type { HostServices } from "../authoring/types.ts";
import type { Logger } from "../host/logger.ts";

export type MetricAttributes = Record<string, string | number | boolean>;

/** Where `ctx.host.otel` values go when OpenTelemetry is exported: real counters and histograms. */
export interface MetricsSink {
  add(name: string, value: number, attributes: MetricAttributes): void;
  record(name: string, value: number, attributes: MetricAttributes): void;
}

/** OpenTelemetry's instrument name syntax. */
const INSTRUMENT_NAME = /^[A-Za-z][A-Za-z0-9_./-]{0,254}$/;

type Kind = "counter" | "histogram";

/**
 * `ctx.host.otel`: `increment` feeds a counter, `record` a histogram. Without
 * an exporter each value is a debug line in the agent's log. A bad call (a
 * name OpenTelemetry rejects, a negative increment, one name used as both
 * kinds) is dropped with a warning, once: a metric never fails a tool or a
 * hook.
 */
export function createHostOtel(logger: Logger, sink: MetricsSink | undefined): HostServices["otel"] {
  const kinds = new Map<string, Kind>();
  const warned = new Set<string>();
  const warnOnce = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    logger.warn(message);
  };
  const accept = (call: string, name: unknown, kind: Kind, value: unknown): name is string => {
    if (typeof name !== "string" || !INSTRUMENT_NAME.test(name)) {
      warnOnce(
        `${call}(${JSON.stringify(name)}): a metric name starts with a letter and has only letters, digits, _ . - and / (at most 255); the value is dropped.`,
      );
      return false;
    }
    const known = kinds.get(name);
    if (known && known !== kind) {
      warnOnce(`${call}("${name}"): "${name}" is already a ${known}; one name cannot be both, the value is dropped.`);
      return false;
    }
    if (typeof value !== "number" || !Number.isFinite(value) || (kind === "counter" && value < 0)) {
      const expected = kind === "counter" ? "a finite number ≥ 0 (a counter only goes up)" : "a finite number";
      const got = typeof value === "number" ? String(value) : JSON.stringify(value);
      warnOnce(`${call}("${name}"): the value must be ${expected}, got ${got}; it is dropped.`);
      return false;
    }
    kinds.set(name, kind);
    return true;
  };
  return {
    increment(name, valueOrAttrs, attrs) {
      const value = typeof valueOrAttrs === "object" || valueOrAttrs === undefined ? 1 : valueOrAttrs;
      const attributes = metricAttributes(typeof valueOrAttrs === "object" ? valueOrAttrs : attrs);
      if (!accept("ctx.host.otel.increment", name, "counter", value)) return;
      if (sink) sink.add(name, value, attributes);
      else logger.debug("metric", { name, value, ...attributes });
    },
    record(name, value, attrs) {
      const attributes = metricAttributes(attrs);
      if (!accept("ctx.host.otel.record", name, "histogram", value)) return;
      if (sink) sink.record(name, value, attributes);
      else logger.debug("metric", { name, value, instrument: "histogram", ...attributes });
    },
  };
}

/** Attribute values OpenTelemetry takes as they are; anything else as JSON text, null and undefined left out. */
function metricAttributes(attributes: Record<string, unknown> | undefined): MetricAttributes {
  const result: MetricAttributes = {};
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null) continue;
    result[key] = typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : JSON.stringify(value);
  }
  return result;
}
