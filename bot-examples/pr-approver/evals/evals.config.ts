import { defineEvalConfig } from "bdk/evals";

export default defineEvalConfig({ maxConcurrency: 4 });
