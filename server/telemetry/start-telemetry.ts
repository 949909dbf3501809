/**
 * The OpenTelemetry SDK, wired for one agent: a tracer provider with a
 * batching OTLP/HTTP span exporter, a meter provider with a periodic OTLP/HTTP
 * metric exporter, and the recorder that turns finished turns into spans and
 * metrics. Imported only when something is exported (`open-agent.ts` loads
 * it dynamically): without an endpoint none of the SDK is loaded.
 *
 * Nothing is registered globally: a project that sets up its own SDK keeps
 * it, and several agents of one host export side by side.
 */
import {
  type Context,
  type Counter,
  type Histogram,
  type Meter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from "@opentelemetry/api";
import { parseKeyPairsIntoRecord } from "@opentelemetry/core";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import type { Logger } from "../host/logger.ts";
import { messageOf } from "../protocol/errors.ts";
import type { AnyBdkEvent, EventDraft } from "../protocol/events.ts";
import type { MetricAttributes, MetricsSink } from "./host-otel.ts";
import { routeDiagnostics, warnOnce } from "./sdk-diagnostics.ts";
import type { OtlpTarget, TelemetrySettings } from "./settings.ts";
import { planTurn, type SpanPlan } from "./span-plan.ts";
import { TurnMetrics } from "./turn-metrics.ts";
import { TurnRecorder } from "./turn-recorder.ts";
import { kitVersion } from "../kit-dir.ts";

export interface Telemetry {
  /** For `SessionRuntime.reader.observe`. */
  recorded(sessionId: string, events: readonly AnyBdkEvent[]): void;
  /** For `SessionRuntimeOptions.onSubagentEvent`. */
  subagentEvent(sessionId: string, parentToolCallId: string, draft: EventDraft): void;
  /** `ctx.host.otel`'s instruments; undefined when metrics are not exported. */
  metrics?: MetricsSink;
  /** Exports what is still buffered; gives up after a few seconds when the collector does not answer. */
  shutdown(): Promise<void>;
}

const INSTRUMENTATION_SCOPE = "bdk";
const SHUTDOWN_TIMEOUT_MS = 5_000;

export async function startTelemetry(
  settings: TelemetrySettings,
  context: { agentName: string; logger: Logger },
): Promise<Telemetry> {
  const { logger } = context;
  const version = kitVersion();
  const unrouteDiagnostics = routeDiagnostics(logger);
  const resource = defaultResource()
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }));

  const tracerProvider = settings.traces
    ? new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(await traceExporter(settings.traces))] })
    : undefined;
  const meterProvider = settings.metrics
    ? new MeterProvider({
        resource,
        readers: [
          new PeriodicExportingMetricReader({
            exporter: await metricExporter(settings.metrics),
            exportIntervalMillis: settings.metricIntervalMs,
            exportTimeoutMillis: Math.min(settings.metricIntervalMs, 30_000),
          }),
        ],
      })
    : undefined;
  const tracer = tracerProvider?.getTracer(INSTRUMENTATION_SCOPE, version);
  const meter = meterProvider?.getMeter(INSTRUMENTATION_SCOPE, version);
  const turnMetrics = meter ? new TurnMetrics(meter) : undefined;
  const planOptions = { agentName: context.agentName, captureContent: settings.captureContent, contentLimit: settings.contentLimit };

  const recorder = new TurnRecorder((record) => {
    const plan = planTurn(record, planOptions);
    if (tracer) emitSpan(tracer, plan.root, ROOT_CONTEXT);
    turnMetrics?.record(plan);
  });
  // The recorder runs inside the runtime's append: a bug here must never fail a turn.
  const guarded = <A extends unknown[]>(run: (...args: A) => void) => (...args: A) => {
    try {
      run(...args);
    } catch (error) {
      warnOnce(logger, `Telemetry could not record a turn: ${messageOf(error)}`);
    }
  };

  return {
    recorded: guarded((sessionId, events) => recorder.recorded(sessionId, events)),
    subagentEvent: guarded((sessionId, toolCallId, draft) => recorder.subagentEvent(sessionId, toolCallId, draft)),
    metrics: meter ? instrumentSink(meter) : undefined,
    async shutdown() {
      const flushed = Promise.all([tracerProvider?.shutdown(), meterProvider?.shutdown()]).then(() => true);
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), SHUTDOWN_TIMEOUT_MS);
      });
      const done = await Promise.race([flushed, gaveUp]).catch((error: unknown) => {
        logger.warn(`Telemetry: the last export failed: ${messageOf(error)}`);
        return true;
      });
      clearTimeout(timer);
      unrouteDiagnostics();
      if (!done) logger.warn(`Telemetry: the collector did not take the last spans and metrics within ${SHUTDOWN_TIMEOUT_MS / 1000} s.`);
    },
  };
}

function emitSpan(tracer: Tracer, plan: SpanPlan, parent: Context): void {
  const span = tracer.startSpan(
    plan.name,
    {
      kind: plan.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
      startTime: plan.start,
      attributes: plan.error ? { ...plan.attributes, [ATTR_ERROR_TYPE]: plan.error.type } : plan.attributes,
    },
    parent,
  );
  if (plan.error) span.setStatus({ code: SpanStatusCode.ERROR, message: plan.error.message });
  const context = trace.setSpan(parent, span);
  for (const child of plan.children) emitSpan(tracer, child, context);
  span.end(plan.end);
}

function instrumentSink(meter: Meter): MetricsSink {
  const counters = new Map<string, Counter>();
  const histograms = new Map<string, Histogram>();
  const instrument = <T>(cache: Map<string, T>, name: string, create: (name: string) => T): T => {
    let found = cache.get(name);
    if (!found) {
      found = create(name);
      cache.set(name, found);
    }
    return found;
  };
  return {
    add(name: string, value: number, attributes: MetricAttributes) {
      instrument(counters, name, (n) => meter.createCounter(n)).add(value, attributes);
    },
    record(name: string, value: number, attributes: MetricAttributes) {
      instrument(histograms, name, (n) => meter.createHistogram(n)).record(value, attributes);
    },
  };
}

function headersOf(target: OtlpTarget): Record<string, string> {
  return Object.assign({}, ...target.headers.map((raw) => parseKeyPairsIntoRecord(raw)));
}

function exporterOptions(target: OtlpTarget) {
  return { url: target.url, headers: headersOf(target), timeoutMillis: target.timeoutMs };
}

async function traceExporter(target: OtlpTarget) {
  const options = exporterOptions(target);
  if (target.protocol === "http/json") return new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter(options);
  return new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter(options);
}

async function metricExporter(target: OtlpTarget) {
  const options = exporterOptions(target);
  if (target.protocol === "http/json") return new (await import("@opentelemetry/exporter-metrics-otlp-http")).OTLPMetricExporter(options);
  return new (await import("@opentelemetry/exporter-metrics-otlp-proto")).OTLPMetricExporter(options);
}
