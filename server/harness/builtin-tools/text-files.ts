/** What the file tools share: telling text from binary. */

const SNIFF_BYTES = 8192;

export function looksBinary(content: Buffer): boolean {
  return content.subarray(0, SNIFF_BYTES).includes(0);
}
