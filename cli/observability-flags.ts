import { LOG_FORMATS, type LogFormat } from "../server/host/logger.ts";
import { endpointProblem, type TelemetryFlags } from "../server/telemetry/settings.ts";
import { type FlagSpec, type ParsedArgs, stringFlag, UsageError } from "./command.ts";

/** `serve`, `dev` and `run`: how log lines look, and where OpenTelemetry goes. */
export const OBSERVABILITY_FLAGS: FlagSpec[] = [
  { name: "log-format", type: "string", description: "text | json: how log lines look on stderr (json: one object a line, for log shippers)" },
  { name: "otel", type: "string", description: "export OpenTelemetry traces and metrics to this OTLP/HTTP endpoint (as OTEL_EXPORTER_OTLP_ENDPOINT)" },
  { name: "otel-content", type: "boolean", description: "record prompts, replies, tool arguments and results on spans (capped)" },
];

export interface ObservabilityOptions {
  /** Undefined when `--log-format` was not given. */
  logFormat?: LogFormat;
  otel: TelemetryFlags;
}

export function observabilityOptions(args: ParsedArgs): ObservabilityOptions {
  const format = stringFlag(args, "log-format");
  if (format !== undefined && !LOG_FORMATS.includes(format as LogFormat)) {
    throw new UsageError(`--log-format is ${LOG_FORMATS.join(" or ")}, got "${format}"`);
  }
  const endpoint = stringFlag(args, "otel");
  const problem = endpoint === undefined ? undefined : endpointProblem(endpoint);
  if (problem) throw new UsageError(problem);
  return {
    logFormat: format as LogFormat | undefined,
    otel: { endpoint, captureContent: args.flags["otel-content"] === true },
  };
}
