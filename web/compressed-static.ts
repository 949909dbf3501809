/**
 * The playground's build assets (`/_next/static/...`), compressed by the
 * client's Accept-Encoding (brotli, then gzip). Next.js's own `compress` is
 * off (next.config.mjs: it would also wrap the NDJSON streams); these files
 * are content-hashed and never change while the server runs, so each is
 * compressed once, off the event loop, and kept in memory.
 */
import { readFile, realpath } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

export type Encoding = "br" | "gzip" | "identity";

const TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=utf-8",
  ".mjs": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

const PREFIX = "/_next/static/";
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The encoding to send for an Accept-Encoding header: the best one the client accepts (q > 0), brotli first on a tie. */
export function chooseEncoding(header: string | string[] | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of [header ?? ""].flat().join(",").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => accepted.get(name) ?? (accepted.has("*") ? accepted.get("*")! : 0);
  const br = weightOf("br");
  const gz = weightOf("gzip");
  if (br > 0 && br >= gz) return "br";
  if (gz > 0) return "gzip";
  return "identity";
}

/** Serves compressible files under `<staticDir>` at `/_next/static/`; other requests (and other files) are left to Next.js. */
export class CompressedStatic {
  private readonly cache = new Map<string, Promise<Buffer | undefined>>();
  private readonly root: Promise<string>;

  constructor(staticDir: string) {
    this.root = realpath(staticDir).catch(() => staticDir);
  }

  /** True when it answers the request (or will): the caller must not hand it on. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "/";
    if (!url.startsWith(PREFIX)) return false;
    const relative = safeRelative(url.slice(PREFIX.length).split("?")[0]);
    const type = relative && TYPES[path.extname(relative)];
    if (!relative || !type) return false;
    const encoding = chooseEncoding(req.headers["accept-encoding"]);
    if (encoding === "identity") return false;
    void this.body(relative, encoding).then(
      (body) => {
        if (!body) {
          res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
          return;
        }
        res.writeHead(200, {
          "content-type": type,
          "content-encoding": encoding,
          "content-length": body.length,
          vary: "Accept-Encoding",
          // Content-hashed names: a changed file has a new name.
          "cache-control": "public, max-age=31536000, immutable",
        });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      () => res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Cannot read the asset"),
    );
    return true;
  }

  private body(relative: string, encoding: "br" | "gzip"): Promise<Buffer | undefined> {
    const key = `${encoding}:${relative}`;
    let cached = this.cache.get(key);
    if (!cached) {
      cached = this.compress(relative, encoding);
      this.cache.set(key, cached);
      // A failed read (EMFILE, a file replaced mid-read) is retried by the next request, not answered 500 until a restart.
      cached.catch(() => this.cache.delete(key));
    }
    return cached;
  }

  private async compress(relative: string, encoding: "br" | "gzip"): Promise<Buffer | undefined> {
    const root = await this.root;
    const file = path.join(root, relative);
    const raw = await readFile(file).catch(() => undefined);
    if (!raw) {
      // A missing file is not cached: a build may still be writing it.
      this.cache.delete(`${encoding}:${relative}`);
      return undefined;
    }
    if (encoding === "gzip") return gzipped(raw, { level: 9 });
    // Quality 9: close to 11 in size at a fraction of its time, so the first visitor does not wait.
    return brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
  }
}

/** The decoded path below the static root, or undefined for anything that could leave it. */
function safeRelative(encoded: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return undefined;
  const normal = path.posix.normalize(decoded);
  if (normal.startsWith("/") || normal === ".." || normal.startsWith("../") || normal.length === 0) return undefined;
  return normal;
}
