import path from "node:path";
import { KIT_DIR } from "./bdk-server.ts";

/**
 * The conformance bots, vendored from the shared reference so the suite runs
 * on any checkout; `test/conformance-copy.test.ts` checks the copy is current.
 */
export const CONFORMANCE_DIR = path.join(KIT_DIR, "test", "fixtures", "conformance");
export const SHARED_CONFORMANCE_DIR = path.resolve(KIT_DIR, "..", "shared", "conformance");
