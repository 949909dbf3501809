import path from "node:path";
import { type Command, stringFlag } from "../command.ts";
import { formatDiagnostic } from "./validate.ts";

export const manifestCommand: Command = {
  name: "manifest",
  summary: "Print deployment metadata as JSON: model, secrets, egress, env, routes, schedules",
  usage: "bdk manifest [--dir D]",
  flags: [{ name: "dir", type: "string", description: "project directory (or a folder of projects)", default: "." }],
  async run(args, io) {
    const dir = path.resolve(io.cwd, stringFlag(args, "dir") ?? ".");
    const { discoverHost } = await import("../../server/discover/host.ts");
    const { loadAgent } = await import("../../server/load/load-agent.ts");
    const { deploymentManifest } = await import("../../server/manifest/deployment-manifest.ts");

    const layout = discoverHost(dir);
    const targets = layout.kind === "multi" ? layout.agents : [{ slug: undefined, dir }];
    const manifests = [];
    let failed = layout.diagnostics.some((diagnostic) => diagnostic.severity === "error");
    for (const diagnostic of layout.diagnostics) io.stderr.write(`${formatDiagnostic(diagnostic, io)}\n`);
    for (const target of targets) {
      const loaded = await loadAgent(target.dir);
      const errors = loaded.diagnostics.filter((diagnostic) => diagnostic.severity === "error");
      if (!loaded.agent || errors.length > 0) {
        failed = true;
        for (const diagnostic of errors) io.stderr.write(`${target.slug ? `[${target.slug}] ` : ""}${formatDiagnostic(diagnostic, io)}\n`);
        continue;
      }
      manifests.push({ ...(target.slug ? { slug: target.slug } : {}), ...deploymentManifest(loaded.agent) });
    }
    if (failed) {
      io.stderr.write("bdk manifest: the project has errors (see above); run `bdk validate` for details.\n");
      return 1;
    }
    const output = layout.kind === "multi" ? { agents: manifests } : manifests[0];
    io.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return 0;
  },
};
