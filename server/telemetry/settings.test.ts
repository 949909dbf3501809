import { describe, expect, it } from "vitest";
import { telemetrySettings } from "./settings.ts";

const DEFAULTS = { serviceName: "shop" };

describe("telemetrySettings", () => {
  it("exports nothing without an endpoint, or with OTEL_SDK_DISABLED", () => {
    expect(telemetrySettings({}, {}, DEFAULTS)).toEqual({ warnings: [] });
    expect(telemetrySettings({}, { captureContent: true }, DEFAULTS).warnings).toEqual([
      "--otel-content has no effect without an endpoint (--otel <url> or OTEL_EXPORTER_OTLP_ENDPOINT).",
    ]);
    expect(telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }, {}, DEFAULTS).settings).toBeUndefined();
  });

  it("follows the specification's endpoint rules: /v1/<signal> on the base, signal endpoints as they are, --otel over both", () => {
    const { settings } = telemetrySettings(
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/", OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "https://metrics.example/ingest" },
      {},
      DEFAULTS,
    );
    expect(settings?.traces?.url).toBe("http://collector:4318/v1/traces");
    expect(settings?.metrics?.url).toBe("https://metrics.example/ingest");

    const flagged = telemetrySettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://elsewhere:4318/v1/traces" }, { endpoint: "http://127.0.0.1:9999" }, DEFAULTS);
    expect(flagged.settings?.traces?.url).toBe("http://127.0.0.1:9999/v1/traces");
    expect(flagged.settings?.metrics?.url).toBe("http://127.0.0.1:9999/v1/metrics");
  });

  it("sends a signal only where its endpoint is known, and none where its exporter is none", () => {
    const tracesOnly = telemetrySettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" }, {}, DEFAULTS).settings;
    expect(tracesOnly?.traces).toBeDefined();
    expect(tracesOnly?.metrics).toBeUndefined();
    const noMetrics = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_METRICS_EXPORTER: "none" }, {}, DEFAULTS).settings;
    expect(noMetrics?.metrics).toBeUndefined();
  });

  it("reads protocol, headers, service name and content capture; names what it ignores", () => {
    const { settings, warnings } = telemetrySettings(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "grpc",
        OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20x",
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-tenant=shop",
        OTEL_SERVICE_NAME: "shop-prod",
        OTEL_EXPORTER_OTLP_METRICS_TIMEOUT: "20000",
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "TRUE",
        BDK_OTEL_CONTENT_LIMIT: "lots",
      },
      {},
      DEFAULTS,
    );
    expect(settings).toMatchObject({
      traces: { protocol: "http/json", headers: ["authorization=Bearer%20x", "x-tenant=shop"], timeoutMs: 5000 },
      metrics: { protocol: "http/protobuf", headers: ["authorization=Bearer%20x"], timeoutMs: 20000 },
      serviceName: "shop-prod",
      captureContent: true,
      contentLimit: 4096,
    });
    expect(warnings).toEqual([
      'OTLP protocol "grpc" is not supported (use http/protobuf or http/json, on the collector\'s HTTP port, usually 4318); metrics use http/protobuf.',
      "BDK_OTEL_CONTENT_LIMIT=lots is not a positive integer; using 4096.",
    ]);
  });

  it("drops a signal whose endpoint is not an http(s) URL, saying so", () => {
    const { settings, warnings } = telemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" }, {}, DEFAULTS);
    expect(settings).toBeUndefined();
    expect(warnings[0]).toBe('The OTLP traces endpoint "collector:4318/v1/traces" is not an http(s) URL; traces are not exported.');
  });
});
