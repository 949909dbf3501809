import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { kitPath } from "../../server/kit-dir.ts";
import { type Command, stringFlag, UsageError } from "../command.ts";

const DOCS_DIR = kitPath("docs");
const DEFAULT_URL = "http://127.0.0.1:3000";

/** The status of `GET url` within a short timeout; undefined when nothing answers. */
async function probe(url: string): Promise<number | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1500), redirect: "manual" });
    await response.body?.cancel();
    return response.status;
  } catch {
    return undefined;
  }
}

export const docsCommand: Command = {
  name: "docs",
  summary: "Print the URL of a running server's /docs, or the path of the local docs folder",
  usage: "bdk docs [page] [--url U]",
  flags: [{ name: "url", type: "string", description: "the server to ask", default: DEFAULT_URL }],
  async run(args, io) {
    const [page, ...extra] = args.positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const pages = readdirSync(DOCS_DIR)
      .filter((file) => file.endsWith(".md"))
      .map((file) => file.slice(0, -3));
    const slug = page?.replace(/\.md$/, "");
    if (slug !== undefined && !pages.includes(slug)) {
      io.stderr.write(`bdk docs: no page "${slug}". Pages: ${pages.filter((name) => name !== "README").join(", ")}\n`);
      return 1;
    }

    const base = (stringFlag(args, "url") ?? DEFAULT_URL).replace(/\/+$/, "");
    if ((await probe(`${base}/health`)) === 200) {
      const url = `${base}/docs${slug && slug !== "README" ? `/${slug}` : ""}`;
      if ((await probe(url)) === 200) {
        io.stdout.write(`${url}\n`);
        return 0;
      }
      io.stderr.write(`The server at ${base} does not serve /docs (started with --no-docs); the local files:\n`);
    }
    const file = slug ? path.join(DOCS_DIR, `${slug}.md`) : DOCS_DIR;
    io.stdout.write(`${existsSync(file) ? file : DOCS_DIR}\n`);
    return 0;
  },
};
