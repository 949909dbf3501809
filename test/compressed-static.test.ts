import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseEncoding, CompressedStatic } from "../web/compressed-static.ts";

describe("chooseEncoding", () => {
  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip;q=0", "identity"],
    ["*", "br"],
    ["*;q=0.2, br;q=0", "gzip"],
    ["identity", "identity"],
    ["", "identity"],
    ["gzip;q=nonsense", "identity"],
  ])("%j → %s", (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

describe("CompressedStatic over HTTP", () => {
  const script = `console.log(${JSON.stringify("x".repeat(5000))});\n`.repeat(20);
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    const root = mkdtempSync(path.join(tmpdir(), "bdk-static-"));
    mkdirSync(path.join(root, "static", "chunks"), { recursive: true });
    writeFileSync(path.join(root, "static", "chunks", "app.js"), script);
    writeFileSync(path.join(root, "static", "font.woff2"), "binary");
    writeFileSync(path.join(root, "secret.js"), "outside");
    const assets = new CompressedStatic(path.join(root, "static"));
    // What the front does: the assets first, everything else to the next handler (Next.js there).
    server = createServer((req, res) => {
      if (!assets.handle(req, res)) res.writeHead(299, { "content-type": "text/plain" }).end("next");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // node:http, not fetch: fetch would decode the body and hide what went over the wire.
  const get = (target: string, acceptEncoding?: string, method = "GET") =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: target, method, headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });

  it("sends brotli or gzip by Accept-Encoding, far smaller than the file, decoding to its bytes", async () => {
    const br = await get("/_next/static/chunks/app.js", "gzip, deflate, br");
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(br.headers["content-type"]).toContain("javascript");
    expect(br.headers["cache-control"]).toContain("immutable");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(br.body).toString()).toBe(script);

    const gz = await get("/_next/static/chunks/app.js?v=1", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const head = await get("/_next/static/chunks/app.js", "br", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it("leaves to Next.js what it does not compress: no Accept-Encoding, binary types, other paths, POST", async () => {
    for (const [target, encoding, method] of [
      ["/_next/static/chunks/app.js", undefined, "GET"],
      ["/_next/static/font.woff2", "br", "GET"],
      ["/playground", "br", "GET"],
      ["/_next/static/chunks/app.js", "br", "POST"],
    ] as const) {
      const answer = await get(target, encoding, method);
      expect(answer.status, target).toBe(299);
    }
  });

  it("never serves outside the static folder, and answers 404 for a file it does not have", async () => {
    for (const target of ["/_next/static/../secret.js", "/_next/static/%2e%2e/secret.js", "/_next/static/chunks/%2e%2e%2f%2e%2e%2fsecret.js", "/_next/static/%E0%A4%A.js"]) {
      const answer = await get(target, "br");
      expect(answer.body.toString(), target).not.toContain("outside");
    }
    const missing = await get("/_next/static/chunks/gone.js", "br");
    expect(missing.status).toBe(404);
  });
});
