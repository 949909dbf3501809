/**
 * The `bdk init` templates: each folder here is a project (bot/, evals/,
 * README.md) plus a `template.json` describing it. Rendering adds the files
 * every project gets — package.json depending on this kit by a `file:` path,
 * a tsconfig whose paths give `@cursor/bdk` the kit's types, .gitignore — and
 * fills `{{name}}` and `{{next-steps}}` in Markdown files.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const KIT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
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
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  exports: Record<string, string>;
}

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

function kitPackage(kitDir: string): KitPackage {
  return JSON.parse(readFileSync(path.join(kitDir, "package.json"), "utf8")) as KitPackage;
}

/** A path from the project to the kit, `/`-separated, starting with `.` when relative. */
function kitPathFrom(projectDir: string, kitDir: string): string {
  const relative = path.relative(projectDir, kitDir).split(path.sep).join("/");
  if (path.isAbsolute(relative)) return relative;
  return relative.startsWith("..") ? relative : `./${relative}`;
}

/**
 * `@cursor/bdk[/sub]` and `<kit name>[/sub]` → the kit's authoring sources,
 * from the kit's package.json "exports" (the loader maps the same names).
 * Subpaths whose file is `server/authoring/<sub>.ts` are covered by the wildcard.
 */
function authoringPaths(kit: KitPackage, kitPath: string): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const name of ["@cursor/bdk", kit.name]) {
    for (const [key, target] of Object.entries(kit.exports)) {
      if (!target.startsWith("./server/authoring/")) continue;
      const subpath = key.slice(2);
      if (subpath && target === `./server/authoring/${subpath}.ts`) continue;
      paths[subpath ? `${name}/${subpath}` : name] = [`${kitPath}/${target.slice(2)}`];
    }
    paths[`${name}/*`] = [`${kitPath}/server/authoring/*.ts`];
  }
  return paths;
}

function packageJson(name: string, kit: KitPackage, kitPath: string): string {
  const pkg = {
    name,
    private: true,
    type: "module",
    scripts: { dev: "bdk dev", test: "bdk validate && tsc --noEmit", eval: "bdk eval" },
    dependencies: { [kit.name]: `file:${kitPath}`, zod: kit.dependencies.zod },
    devDependencies: { "@types/node": kit.devDependencies["@types/node"], typescript: kit.devDependencies.typescript },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function tsconfigJson(kit: KitPackage, kitPath: string): string {
  const config = {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2023", "DOM", "DOM.Iterable"],
      module: "ESNext",
      moduleResolution: "bundler",
      allowImportingTsExtensions: true,
      noEmit: true,
      strict: true,
      skipLibCheck: true,
      isolatedModules: true,
      esModuleInterop: true,
      resolveJsonModule: true,
      types: ["node"],
      paths: authoringPaths(kit, kitPath),
    },
    include: ["bot", "evals"],
  };
  // Arrays of strings on one line: the paths table stays readable.
  const text = JSON.stringify(config, null, 2).replace(/\[\s+((?:"[^"]*",?\s+)+)\]/g, (_match, items: string) => `[${items.trim().split(/,\s+/).join(", ")}]`);
  return `${text}\n`;
}

const GITIGNORE = ["node_modules/", "# BDK state: sessions, traces, the SQLite store", ".bdk/", ""].join("\n");

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

/** Every file of the new project (relative path → contents); nothing is written here. */
export function renderProject(template: Template, options: { name: string; projectDir: string; kitDir?: string }): Map<string, string> {
  const kitDir = options.kitDir ?? KIT_DIR;
  const kit = kitPackage(kitDir);
  const kitPath = kitPathFrom(path.resolve(options.projectDir), kitDir);
  const files = new Map<string, string>();
  for (const relative of listFiles(template.dir)) {
    if (relative === META_FILE) continue;
    const contents = readFileSync(path.join(template.dir, relative), "utf8");
    files.set(
      relative,
      relative.endsWith(".md") ? contents.replaceAll("{{name}}", options.name).replaceAll("{{next-steps}}", nextSteps(template)) : contents,
    );
  }
  files.set("package.json", packageJson(options.name, kit, kitPath));
  files.set("tsconfig.json", tsconfigJson(kit, kitPath));
  files.set(".gitignore", GITIGNORE);
  return files;
}
