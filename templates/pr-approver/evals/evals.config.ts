import { defineEvalConfig } from "@cursor/bdk/evals";

export default defineEvalConfig({ maxConcurrency: 4 });
