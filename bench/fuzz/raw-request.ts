/**
 * One HTTP/1.1 request written byte for byte on a fresh socket, so the fuzz
 * can send what no client library would (bad methods, malformed escapes,
 * broken chunking, slow pieces), and the answer's status line read back.
 */
import { connect } from "node:net";

export interface RawRequest {
  method: string;
  target: string;
  headers: Array<[string, string]>;
  /** Sent as one piece, or piece by piece with `pauseMs` between them (slow clients). */
  body?: Buffer | Buffer[];
  /** Sends the body with `Transfer-Encoding: chunked`, one chunk per piece. */
  chunked?: boolean;
  /** Pause between pieces of the head and of the body. */
  pauseMs?: number;
  /** Sends the head in this many pieces (slow headers). */
  headPieces?: number;
  /** Half-closes after sending (a client that stops early). */
  endEarly?: boolean;
}

export interface RawAnswer {
  status?: number;
  contentType?: string;
  /** The first bytes of the body. */
  body: string;
  /** No status line (or no end of a non-streaming body) before the deadline. */
  hung: boolean;
  /** The server closed the connection without answering (what Node's parser does for some broken requests). */
  closedWithoutAnswer: boolean;
}

const BODY_SAMPLE = 4096;

export function sendRaw(port: number, request: RawRequest, deadlineMs: number): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    let settled = false;
    let headEnd = -1;
    let status: number | undefined;
    let contentType: string | undefined;
    let chunked = false;
    const finish = (answer: Partial<RawAnswer>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = headEnd >= 0 ? received.subarray(headEnd + 4, headEnd + 4 + BODY_SAMPLE).toString("utf8") : "";
      resolve({ status, contentType, body: chunked ? unchunk(raw) : raw, hung: false, closedWithoutAnswer: false, ...answer });
    };
    let timer = setTimeout(() => finish({ hung: true }), deadlineMs);
    socket.on("error", () => finish({ closedWithoutAnswer: status === undefined }));
    socket.on("close", () => finish({ closedWithoutAnswer: status === undefined }));
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      while (headEnd < 0) {
        headEnd = received.indexOf("\r\n\r\n");
        if (headEnd < 0) return;
        const head = received.subarray(0, headEnd).toString("latin1");
        status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
        if (status >= 100 && status < 200) {
          // An interim answer (100 Continue): the real one follows.
          received = received.subarray(headEnd + 4);
          headEnd = -1;
          status = undefined;
          continue;
        }
        contentType = /\r\ncontent-type:\s*([^\r\n]*)/i.exec(head)?.[1];
        chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head);
        // A live NDJSON stream never ends by design: its head is the answer.
        if (contentType?.includes("ndjson") || request.method === "HEAD") finish({});
      }
      if (received.length - headEnd > BODY_SAMPLE + 4) finish({});
    });
    socket.on("end", () => finish({ closedWithoutAnswer: status === undefined }));
    socket.once("connect", () => {
      void write(socket, request).then(
        () => {
          // The deadline runs from the last byte sent: a slow client is not a slow server.
          clearTimeout(timer);
          timer = setTimeout(() => finish({ hung: true }), deadlineMs);
        },
        () => finish({ closedWithoutAnswer: status === undefined }),
      );
    });
  });
}

/** The body of a chunked answer without its framing (enough for a sample). */
function unchunk(text: string): string {
  let out = "";
  let rest = text;
  for (;;) {
    const match = /^([0-9a-fA-F]+)\r\n/.exec(rest);
    if (!match) return out || text;
    const size = Number.parseInt(match[1], 16);
    out += rest.slice(match[0].length, match[0].length + size);
    rest = rest.slice(match[0].length + size + 2);
    if (size === 0) return out;
  }
}

async function write(socket: ReturnType<typeof connect>, request: RawRequest): Promise<void> {
  const pieces = request.body === undefined ? [] : Array.isArray(request.body) ? request.body : [request.body];
  const headers = [...request.headers];
  if (request.chunked) headers.push(["Transfer-Encoding", "chunked"]);
  else if (pieces.length > 0 && !headers.some(([name]) => name.toLowerCase() === "content-length")) {
    headers.push(["Content-Length", String(pieces.reduce((sum, piece) => sum + piece.length, 0))]);
  }
  const head = Buffer.from(
    `${request.method} ${request.target} HTTP/1.1\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n`,
    "latin1",
  );
  const headPieces = request.headPieces ?? 1;
  const step = Math.ceil(head.length / headPieces);
  for (let offset = 0; offset < head.length; offset += step) {
    if (!(await send(socket, head.subarray(offset, offset + step)))) return;
    if (headPieces > 1) await pause(request.pauseMs ?? 0);
  }
  for (const piece of pieces) {
    const framed = request.chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]) : piece;
    if (!(await send(socket, framed))) return;
    if (pieces.length > 1) await pause(request.pauseMs ?? 0);
  }
  if (request.chunked) await send(socket, Buffer.from("0\r\n\r\n"));
  if (request.endEarly) socket.end();
}

/** Writes with backpressure; false once the server has closed the connection. */
function send(socket: ReturnType<typeof connect>, bytes: Buffer): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    socket.write(bytes, (error) => resolve(!error));
  });
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
