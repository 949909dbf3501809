/** What the file tools share: telling text from binary, and fs errors a model can act on. */

const SNIFF_BYTES = 8192;

export function looksBinary(content: Buffer): boolean {
  return content.subarray(0, SNIFF_BYTES).includes(0);
}

/** Runs an fs operation on `shownPath`, turning common errno failures into short messages without absolute paths. */
export async function withFsErrors<T>(shownPath: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const name = JSON.stringify(shownPath);
    if (code === "ENOENT") throw new Error(`${name} does not exist`);
    if (code === "ENOTDIR") throw new Error(`${name} is not a directory, or lies below a file`);
    if (code === "EISDIR") throw new Error(`${name} is a directory`);
    if (code === "EACCES" || code === "EPERM") throw new Error(`${name} is not accessible`);
    throw error;
  }
}
