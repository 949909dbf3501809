import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
import { findService } from "../lib/services.js";

export default defineTool({
  description: "Current health of a service: status, error rate, p95 latency and the latest deploy.",
  effect: "read",
  inputSchema: z.object({ service: z.string().min(1).describe("Service name, e.g. checkout") }),
  async execute({ service }) {
    return findService(service) ?? { service, status: "unknown", note: "No such service in the catalog." };
  },
});
