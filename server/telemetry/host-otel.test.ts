import { describe, expect, it } from "vitest";
import type { Logger } from "../host/logger.ts";
import { createHostOtel, type MetricAttributes } from "./host-otel.ts";

function recordingLogger() {
  const lines: { level: string; msg: string; data?: Record<string, unknown> }[] = [];
  const at = (level: string) => (msg: string, data?: Record<string, unknown>) => lines.push({ level, msg, data });
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  return { logger, lines };
}

describe("ctx.host.otel", () => {
  it("feeds counters and histograms, attributes made OpenTelemetry values", () => {
    const { logger, lines } = recordingLogger();
    const received: [string, string, number, MetricAttributes][] = [];
    const otel = createHostOtel(logger, {
      add: (name, value, attributes) => received.push(["counter", name, value, attributes]),
      record: (name, value, attributes) => received.push(["histogram", name, value, attributes]),
    });
    otel.increment("orders.looked_up");
    otel.increment("tokens.output", 42, { model: "gpt-5" });
    otel.increment("refunds", { reason: { code: "late" }, note: undefined });
    otel.record("order.items", 3, { shop: "eu", express: true });
    expect(received).toEqual([
      ["counter", "orders.looked_up", 1, {}],
      ["counter", "tokens.output", 42, { model: "gpt-5" }],
      ["counter", "refunds", 1, { reason: '{"code":"late"}' }],
      ["histogram", "order.items", 3, { shop: "eu", express: true }],
    ]);
    expect(lines).toEqual([]);
  });

  it("without an exporter, writes each value as a debug line", () => {
    const { logger, lines } = recordingLogger();
    const otel = createHostOtel(logger, undefined);
    otel.increment("turns", { session: "ses_1" });
    otel.record("reply.chars", 120);
    expect(lines).toEqual([
      { level: "debug", msg: "metric", data: { name: "turns", value: 1, session: "ses_1" } },
      { level: "debug", msg: "metric", data: { name: "reply.chars", value: 120, instrument: "histogram" } },
    ]);
  });

  it("drops a bad call with one warning naming the problem, and never throws", () => {
    const { logger, lines } = recordingLogger();
    const received: string[] = [];
    const otel = createHostOtel(logger, { add: (name) => received.push(name), record: (name) => received.push(name) });
    otel.increment("orders looked up");
    otel.increment("orders looked up");
    otel.increment("refunds", -1);
    otel.record("latency", Number.NaN);
    otel.increment("latency");
    otel.record("latency", 5);
    expect(received).toEqual(["latency"]);
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [
        "warn",
        'ctx.host.otel.increment("orders looked up"): a metric name starts with a letter and has only letters, digits, _ . - and / (at most 255); the value is dropped.',
      ],
      ["warn", 'ctx.host.otel.increment("refunds"): the value must be a finite number ≥ 0 (a counter only goes up), got -1; it is dropped.'],
      ["warn", 'ctx.host.otel.record("latency"): the value must be a finite number, got NaN; it is dropped.'],
      ["warn", 'ctx.host.otel.record("latency"): "latency" is already a counter; one name cannot be both, the value is dropped.'],
    ]);
  });
});
