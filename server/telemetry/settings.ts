/**
 * Whether and where a process exports OpenTelemetry, read from the standard
 * `OTEL_*` variables and the `--otel` flags. Pure and dependency-free: it is
 * the only telemetry module loaded when nothing is exported.
 */

export type OtlpProtocol = "http/protobuf" | "http/json";

/** One signal's OTLP/HTTP destination. */
export interface OtlpTarget {
  url: string;
  protocol: OtlpProtocol;
  /** `key=value,key2=value2` (W3C baggage form, values URL-encoded), generic then signal-specific. */
  headers: string[];
  /** How long one export may take, retries included. */
  timeoutMs: number;
}

export interface TelemetrySettings {
  /** Absent: spans are not exported (`OTEL_TRACES_EXPORTER=none`, or no endpoint for them). */
  traces?: OtlpTarget;
  metrics?: OtlpTarget;
  serviceName: string;
  /** Prompts, replies, tool arguments and results on spans (off unless opted in). */
  captureContent: boolean;
  /** Characters kept of each captured text. */
  contentLimit: number;
  metricIntervalMs: number;
}

/** The CLI's `--otel <url>` (a base endpoint, like `OTEL_EXPORTER_OTLP_ENDPOINT`) and `--otel-content`. */
export interface TelemetryFlags {
  endpoint?: string;
  captureContent?: boolean;
}

export const DEFAULT_CONTENT_LIMIT = 4096;
/**
 * Half the SDK's 10 s: an export to a collector that is down gives up (and
 * the process can exit) within the 5 s BDK waits for the last one.
 */
const DEFAULT_EXPORT_TIMEOUT_MS = 5_000;
const DEFAULT_METRIC_INTERVAL_MS = 60_000;

const SIGNALS = {
  traces: { variable: "TRACES", path: "v1/traces", exporter: "OTEL_TRACES_EXPORTER" },
  metrics: { variable: "METRICS", path: "v1/metrics", exporter: "OTEL_METRICS_EXPORTER" },
} as const;

type Env = Record<string, string | undefined>;

/**
 * `settings` is undefined when nothing is to be exported. `warnings` name
 * settings that were ignored, for the agent's log: a typo in an
 * observability variable never stops a bot from serving.
 */
export function telemetrySettings(
  env: Env,
  flags: TelemetryFlags,
  defaults: { serviceName: string },
): { settings?: TelemetrySettings; warnings: string[] } {
  const warnings: string[] = [];
  if (isTrue(env.OTEL_SDK_DISABLED)) return { warnings };
  const traces = otlpTarget("traces", env, flags, warnings);
  const metrics = otlpTarget("metrics", env, flags, warnings);
  if (!traces && !metrics) {
    if (flags.captureContent) warnings.push("--otel-content has no effect without an endpoint (--otel <url> or OTEL_EXPORTER_OTLP_ENDPOINT).");
    return { warnings };
  }
  return {
    settings: {
      traces,
      metrics,
      serviceName: env.OTEL_SERVICE_NAME?.trim() || defaults.serviceName,
      captureContent: flags.captureContent === true || isTrue(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT),
      contentLimit: positiveInteger(env, "BDK_OTEL_CONTENT_LIMIT", DEFAULT_CONTENT_LIMIT, warnings),
      metricIntervalMs: positiveInteger(env, "OTEL_METRIC_EXPORT_INTERVAL", DEFAULT_METRIC_INTERVAL_MS, warnings),
    },
    warnings,
  };
}

/** A problem with a `--otel` value, for the CLI's usage error; undefined when it is an http(s) URL. */
export function endpointProblem(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return undefined;
  } catch {
    // reported below
  }
  return `--otel expects the collector's OTLP/HTTP base URL (http://host:4318), got "${url}"`;
}

/**
 * The OTel specification's endpoint rules: a signal-specific endpoint is
 * used as is; the base endpoint (the flag wins over the variable) gets
 * `/v1/<signal>` appended. Without either, the signal is not exported: an
 * operator who configured only traces gets no metrics sent to a default port.
 */
function otlpTarget(signal: keyof typeof SIGNALS, env: Env, flags: TelemetryFlags, warnings: string[]): OtlpTarget | undefined {
  const { variable, path, exporter } = SIGNALS[signal];
  const chosenExporter = env[exporter]?.trim().toLowerCase();
  if (chosenExporter === "none") return undefined;
  if (chosenExporter && chosenExporter !== "otlp") {
    warnings.push(`${exporter}=${env[exporter]} is not supported (only otlp and none are); exporting ${signal} over OTLP.`);
  }
  const specific = env[`OTEL_EXPORTER_OTLP_${variable}_ENDPOINT`]?.trim();
  const base = flags.endpoint ?? env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = flags.endpoint === undefined && specific ? specific : base ? joinPath(base, path) : undefined;
  if (!url) return undefined;
  if (!isHttpUrl(url)) {
    warnings.push(`The OTLP ${signal} endpoint "${url}" is not an http(s) URL; ${signal} are not exported.`);
    return undefined;
  }
  const headers = [env.OTEL_EXPORTER_OTLP_HEADERS, env[`OTEL_EXPORTER_OTLP_${variable}_HEADERS`]].filter(
    (value): value is string => Boolean(value?.trim()),
  );
  const timeoutVariable = env[`OTEL_EXPORTER_OTLP_${variable}_TIMEOUT`] ? `OTEL_EXPORTER_OTLP_${variable}_TIMEOUT` : "OTEL_EXPORTER_OTLP_TIMEOUT";
  const timeoutMs = positiveInteger(env, timeoutVariable, DEFAULT_EXPORT_TIMEOUT_MS, warnings);
  return { url, protocol: protocolOf(signal, env, warnings), headers, timeoutMs };
}

function protocolOf(signal: keyof typeof SIGNALS, env: Env, warnings: string[]): OtlpProtocol {
  const name = `OTEL_EXPORTER_OTLP_${SIGNALS[signal].variable}_PROTOCOL`;
  const raw = env[name]?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim();
  if (!raw || raw === "http/protobuf") return "http/protobuf";
  if (raw === "http/json") return "http/json";
  warnings.push(
    `OTLP protocol "${raw}" is not supported (use http/protobuf or http/json, on the collector's HTTP port, usually 4318); ${signal} use http/protobuf.`,
  );
  return "http/protobuf";
}

function joinPath(base: string, path: string): string {
  return `${base.endsWith("/") ? base : `${base}/`}${path}`;
}

function isHttpUrl(url: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === "true";
}

function positiveInteger(env: Env, name: string, fallback: number, warnings: string[]): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (Number.isInteger(value) && value > 0) return value;
  warnings.push(`${name}=${raw} is not a positive integer; using ${fallback}.`);
  return fallback;
}
