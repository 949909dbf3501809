/**
 * A real OTLP/HTTP receiver on 127.0.0.1, as a collector's HTTP port
 * (4318) would be: it answers every export with 200 and keeps what it got.
 * Requests sent as `http/json` are decoded here into spans and metrics;
 * `http/protobuf` bodies are kept as bytes.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedExport {
  path: string;
  contentType: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

export type AttributeValue = string | number | boolean | AttributeValue[] | undefined;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, AttributeValue>;
  status: { code?: number; message?: string };
  resource: Record<string, AttributeValue>;
  scope: string;
}

export interface SpanNode extends ReceivedSpan {
  children: SpanNode[];
}

export interface ReceivedMetric {
  name: string;
  unit?: string;
  /** Data points: their attributes, and the sum (counters) or count and sum (histograms). */
  points: { attributes: Record<string, AttributeValue>; value?: number; count?: number; sum?: number }[];
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: the base endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  url: string;
  exports: ReceivedExport[];
  /** Every span of every JSON trace export so far. */
  spans(): ReceivedSpan[];
  /** Every metric of every JSON metric export so far (a later export's points follow an earlier one's). */
  metrics(): ReceivedMetric[];
  /** Resolves when `check` holds for what arrived, polling as exports come in. */
  waitFor<T>(check: () => T | undefined, what: string, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  let arrived: () => void = () => {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      exports.push({ path: req.url ?? "", contentType: req.headers["content-type"] ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      const json = (req.headers["content-type"] ?? "").includes("json");
      res.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" });
      res.end(json ? "{}" : undefined);
      arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const jsonBodies = (path: string) =>
    exports.filter((entry) => entry.path === path && entry.contentType.includes("json")).map((entry) => JSON.parse(entry.body.toString("utf8")));

  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    spans: () => jsonBodies("/v1/traces").flatMap(decodeSpans),
    metrics: () => jsonBodies("/v1/metrics").flatMap(decodeMetrics),
    async waitFor(check, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = check();
        if (found !== undefined && found !== false) return found;
        if (Date.now() > deadline) throw new Error(`The OTLP receiver did not get ${what} (${exports.length} exports arrived).`);
        await new Promise<void>((resolve) => {
          arrived = resolve;
          setTimeout(resolve, 200);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The spans as trees: roots first, children in start order. */
export function spanTrees(spans: ReceivedSpan[]): SpanNode[] {
  const nodes = new Map(spans.map((span) => [span.spanId, { ...span, children: [] as SpanNode[] }]));
  const roots: SpanNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentSpanId ? nodes.get(node.parentSpanId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const order = (list: SpanNode[]) => {
    list.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
    for (const node of list) order(node.children);
  };
  order(roots);
  return roots;
}

/** `name` and children, recursively: the tree's shape for one assertion. */
export function shape(node: SpanNode): unknown {
  return node.children.length === 0 ? node.name : { [node.name]: node.children.map(shape) };
}

// OTLP/JSON (the protobuf messages' JSON mapping) as the collector receives it.
interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
}
type JsonAttributes = { key: string; value: JsonAnyValue }[] | undefined;

function anyValue(value: JsonAnyValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(anyValue);
  return undefined;
}

function attributes(list: JsonAttributes): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, anyValue(value)]));
}

// The request body is whatever JSON the exporter sent: read field by field.
function decodeSpans(body: any): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans: any) =>
    (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans: any) =>
      (scopeSpans.spans ?? []).map((span: any) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId || undefined,
        name: span.name,
        kind: span.kind,
        start: BigInt(span.startTimeUnixNano),
        end: BigInt(span.endTimeUnixNano),
        attributes: attributes(span.attributes),
        status: span.status ?? {},
        resource: attributes(resourceSpans.resource?.attributes),
        scope: scopeSpans.scope?.name ?? "",
      })),
    ),
  );
}

function decodeMetrics(body: any): ReceivedMetric[] {
  return (body.resourceMetrics ?? []).flatMap((resourceMetrics: any) =>
    (resourceMetrics.scopeMetrics ?? []).flatMap((scopeMetrics: any) =>
      (scopeMetrics.metrics ?? []).map((metric: any) => {
        const data = metric.sum ?? metric.histogram ?? metric.gauge ?? {};
        return {
          name: metric.name,
          unit: metric.unit,
          points: (data.dataPoints ?? []).map((point: any) => ({
            attributes: attributes(point.attributes),
            value: point.asInt !== undefined ? Number(point.asInt) : point.asDouble,
            count: point.count !== undefined ? Number(point.count) : undefined,
            sum: point.sum,
          })),
        };
      }),
    ),
  );
}
