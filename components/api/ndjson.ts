/**
 * Reads an NDJSON body line by line. Blank lines are keepalives; a line that
 * is not JSON is skipped rather than killing the stream.
 */
export async function readNdjson(res: Response, onValue: (value: unknown) => void): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      if (!pending.includes("\n")) continue;
      // split (not repeated slicing) keeps a multi-megabyte replay linear.
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) emit(line, onValue);
    }
    pending += decoder.decode();
    emit(pending, onValue);
  } finally {
    reader.releaseLock();
  }
}

function emit(line: string, onValue: (value: unknown) => void): void {
  const trimmed = line.trim();
  if (!trimmed) return;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    console.warn("bdk: skipped a malformed NDJSON line", trimmed.slice(0, 200));
    return;
  }
  onValue(value);
}
