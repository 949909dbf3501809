import path from "node:path";
import { KIT_DIR } from "./bdk-server.ts";

/** The conformance bots, vendored from the reference so the suite runs on any checkout (nothing beside it is read). */
export const CONFORMANCE_DIR = path.join(KIT_DIR, "test", "fixtures", "conformance");
