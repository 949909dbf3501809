import { defineEvalConfig } from "bdk/evals";

export default defineEvalConfig({ maxConcurrency: 4, timeoutMs: 60_000 });
