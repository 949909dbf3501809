/**
 * The `bdk init` templates: each folder here is a project (bot/, evals/,
 * README.md) plus a `template.json` describing it. Rendering adds the files
 * every project gets — package.json depending on this kit as `@cursor/bdk`,
 * the published scaffold's tsconfig (NodeNext, strict), .gitignore — and
 * fills `{{name}}` and `{{next-steps}}` in Markdown files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { KIT_DIR } from "../server/kit-dir.ts";

const TEMPLATES_DIR = path.join(KIT_DIR, "templates");
export const DEFAULT_TEMPLATE = "pr-approver";
const META_FILE = "template.json";

export interface Template {
  id: string;
  /** One line for `bdk init --list`. */
  summary: string;
  /** A message that does something useful with this template (README and the init summary). */
  tryMessage: string;
  order: number;
  dir: string;
}

interface KitPackage {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/** The name template code imports the kit by, as the published docs do. */
const KIT_IMPORT_NAME = "@cursor/bdk";

export function listTemplates(): Template[] {
  return readdirSync(TEMPLATES_DIR)
    .filter((entry) => statSync(path.join(TEMPLATES_DIR, entry)).isDirectory())
    .filter((entry) => statSync(path.join(TEMPLATES_DIR, entry, META_FILE), { throwIfNoEntry: false })?.isFile())
    .map((id) => {
      const meta = JSON.parse(readFileSync(path.join(TEMPLATES_DIR, id, META_FILE), "utf8")) as { summary: string; try: string; order: number };
      return { id, summary: meta.summary, tryMessage: meta.try, order: meta.order, dir: path.join(TEMPLATES_DIR, id) };
    })
    .sort((a, b) => a.order - b.order);
}

/** npm's rules for a package name (the agent's name comes from it). */
export function isValidPackageName(name: string): boolean {
  return name.length <= 214 && /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(name);
}

/** A valid package name from a directory name: `My Bot` → `my-bot`. */
export function packageNameFrom(dirName: string): string {
  const cleaned = dirName
    .toLowerCase()
    .replace(/[^a-z0-9-._~]+/g, "-")
    .replace(/^[-._]+|-+$/g, "");
  return cleaned || "my-bot";
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** A `file:` path from the project, `/`-separated, starting with `.` when relative. */
function filePathFrom(projectDir: string, target: string): string {
  const relative = path.relative(projectDir, target).split(path.sep).join("/");
  if (path.isAbsolute(relative)) return relative;
  return relative.startsWith("..") ? relative : `./${relative}`;
}

/** `<host>/node_modules/<name>` (name possibly scoped) when the kit is an installed package. */
function installedAs(kitDir: string): { hostDir: string; name: string } | undefined {
  const parts = kitDir.split(path.sep);
  const at = parts.lastIndexOf("node_modules");
  const rest = parts.slice(at + 1);
  if (at === -1 || rest.length !== (rest[0]?.startsWith("@") ? 2 : 1)) return undefined;
  return { hostDir: parts.slice(0, at).join(path.sep) || path.sep, name: rest.join("/") };
}

/**
 * How the new project depends on the kit: the way the project the kit was
 * installed into does (its `file:` tarball rebased onto the new project, or
 * its registry range), or a link to this checkout when run from one.
 */
function kitDependency(kit: KitPackage, kitDir: string, projectDir: string): string {
  const installed = installedAs(kitDir);
  if (!installed) return `file:${filePathFrom(projectDir, kitDir)}`;
  const host = readJson(path.join(installed.hostDir, "package.json")) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> } | undefined;
  const spec = host?.dependencies?.[installed.name] ?? host?.devDependencies?.[installed.name];
  if (spec?.startsWith("file:")) return `file:${filePathFrom(projectDir, path.resolve(installed.hostDir, spec.slice("file:".length)))}`;
  if (spec === undefined) return `npm:${kit.name}@^${kit.version}`;
  // A spec keeps its meaning under another key, except a registry range, which names a package: that one needs `npm:<name>@`.
  const registryRange = !/^[a-z+]+:/.test(spec) && !spec.includes("/");
  return registryRange && installed.name !== KIT_IMPORT_NAME ? `npm:${installed.name}@${spec}` : spec;
}

function packageJson(name: string, kit: KitPackage, kitSpec: string): string {
  // The kit's own versions, wherever it lists them (typescript is a runtime dependency of the kit).
  const versions = { ...kit.devDependencies, ...kit.dependencies };
  const pkg = {
    name,
    private: true,
    type: "module",
    scripts: { dev: "bdk dev", test: "bdk validate && tsc --noEmit", eval: "bdk eval" },
    dependencies: { [KIT_IMPORT_NAME]: kitSpec, zod: kit.dependencies.zod },
    devDependencies: { "@types/node": versions["@types/node"], typescript: versions.typescript },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** The published scaffold's settings: types come from the kit's package exports. */
const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
  },
  include: ["bot", "evals"],
};

const GITIGNORE = ["node_modules/", "# BDK state: sessions, traces, the SQLite store", ".bdk/", "# Local secrets (bdk reads .env and .env.local)", ".env.local", ""].join("\n");

function nextSteps(template: Template): string {
  const message = JSON.stringify(template.tryMessage);
  return [
    "## Next steps",
    "",
    "```bash",
    "npx bdk dev                    # playground at http://127.0.0.1:3000/playground, reloads on save",
    `npx bdk run --message ${message}`,
    "npx bdk eval                   # run evals/",
    "```",
    "",
    "No model key yet? Put `BDK_MODEL=scripted` in front of any command to use the",
    "offline scripted model. `npx bdk validate`, `npx bdk info` and `npx bdk manifest`",
    "show what the project defines and what a deployment needs; `npm test` validates",
    "and type-checks it.",
  ].join("\n");
}

function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const relative = prefix ? `${prefix}/${entry}` : entry;
      return statSync(path.join(dir, entry)).isDirectory() ? listFiles(path.join(dir, entry), relative) : [relative];
    });
}

/**
 * A checkout of the kit before `npm run build` (the package always has them):
 * a project linked to it would not find `@cursor/bdk`'s types.
 */
export function kitTypesMissing(kitDir = KIT_DIR): boolean {
  return !existsSync(path.join(kitDir, "dist", "server", "authoring", "index.d.ts"));
}

/** Every file of the new project (relative path → contents); nothing is written here. */
export function renderProject(template: Template, options: { name: string; projectDir: string; kitDir?: string }): Map<string, string> {
  const kitDir = options.kitDir ?? KIT_DIR;
  const kit = readJson(path.join(kitDir, "package.json")) as unknown as KitPackage;
  const files = new Map<string, string>();
  for (const relative of listFiles(template.dir)) {
    if (relative === META_FILE) continue;
    const contents = readFileSync(path.join(template.dir, relative), "utf8");
    files.set(
      relative,
      relative.endsWith(".md") ? contents.replaceAll("{{name}}", options.name).replaceAll("{{next-steps}}", nextSteps(template)) : contents,
    );
  }
  files.set("package.json", packageJson(options.name, kit, kitDependency(kit, kitDir, path.resolve(options.projectDir))));
  files.set("tsconfig.json", `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  files.set(".gitignore", GITIGNORE);
  return files;
}
