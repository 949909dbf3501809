import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { booleanFlag, type Command, type CommandIO, stringFlag, UsageError } from "../command.ts";
import { dimmed } from "../render.ts";
import { KIT_DIR } from "../../server/kit-dir.ts";
import { DEFAULT_TEMPLATE, isValidPackageName, kitTypesMissing, listTemplates, packageNameFrom, renderProject, type Template } from "../../templates/scaffold.ts";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

function printTemplates(io: CommandIO, templates: Template[]): void {
  const width = Math.max(...templates.map((template) => template.id.length));
  io.stdout.write("Templates (bdk init <dir> --template <id>):\n");
  for (const template of templates) {
    const label = template.id === DEFAULT_TEMPLATE ? `${template.summary} (default)` : template.summary;
    io.stdout.write(`  ${template.id.padEnd(width)}  ${label}\n`);
  }
}

/** Why the directory cannot take the project without --force, or undefined when it can. */
function refusal(dir: string, files: Map<string, string>): string | undefined {
  if (!existsSync(dir)) return undefined;
  // A fresh `git init` leaves the directory as good as empty.
  const present = readdirSync(dir).filter((entry) => entry !== ".git");
  if (present.length === 0) return undefined;
  const conflicts = [...files.keys()].filter((relative) => existsSync(path.join(dir, relative)));
  const named = (list: string[]) => (list.length > 8 ? `${list.slice(0, 8).join(", ")} and ${list.length - 8} more` : list.join(", "));
  return conflicts.length > 0
    ? `${dir} is not empty and these files would be overwritten: ${named(conflicts)}. Nothing was written; use --force to overwrite them (other files are kept).`
    : `${dir} is not empty (it has ${named(present.sort())}). Nothing was written; use --force to add the project anyway.`;
}

function writeProject(dir: string, files: Map<string, string>): void {
  for (const [relative, contents] of files) {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, contents);
  }
}

/**
 * `npm install` in the new project, with a spinner and the elapsed time on a
 * terminal and plain lines otherwise. The kit is a `file:` dependency (a
 * local link) and the rest comes from npm's cache when it is there.
 */
function npmInstall(dir: string, io: CommandIO): Promise<boolean> {
  const started = Date.now();
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  const tty = Boolean(io.stdout.isTTY);
  let output = "";
  let frame = 0;
  const label = "Installing dependencies (npm install)";
  const timer = tty
    ? setInterval(() => io.stdout.write(`\r${SPINNER[frame++ % SPINNER.length]} ${label} ${seconds()}`), 100)
    : undefined;
  if (!tty) io.stdout.write(`${label}...\n`);

  return new Promise((resolve) => {
    const child = spawn(process.platform === "win32" ? "npm.cmd" : "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], {
      cwd: dir,
      env: { ...io.env, npm_config_update_notifier: "false" },
      stdio: ["ignore", "pipe", "pipe"],
      shell: process.platform === "win32",
    });
    const collect = (chunk: Buffer) => {
      output += chunk;
      if (!tty) {
        const lines = chunk.toString().split("\n").filter((line) => line.trim());
        for (const line of lines) io.stdout.write(`  ${line}\n`);
      }
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    let finished = false;
    // A spawn failure can report both "error" and "close": answer once.
    const finish = (ok: boolean, message: string) => {
      if (finished) return;
      finished = true;
      if (timer) clearInterval(timer);
      if (tty) io.stdout.write("\r\x1b[2K");
      const summary = tty ? /(added|changed|up to date)[^\n]*?(?= in \d|\n|$)/.exec(output)?.[0] : undefined;
      if (ok) io.stdout.write(`Installed dependencies in ${seconds()}${summary ? ` (${summary})` : ""}.\n`);
      else io.stderr.write(`${tty ? output : ""}bdk init: ${message}\n`);
      resolve(ok);
    };
    child.on("error", (error) => finish(false, `could not run npm (${error.message}); install the dependencies yourself with npm install.`));
    child.on("close", (code) => finish(code === 0, `npm install failed (exit ${code}); the project is written, fix the problem and run npm install in it.`));
  });
}

function printNextSteps(io: CommandIO, dir: string, template: Template, installed: boolean): void {
  const relative = path.relative(io.cwd, dir) || ".";
  const lines = [
    ...(relative === "." ? [] : [`cd ${/\s/.test(relative) ? JSON.stringify(relative) : relative}`]),
    ...(installed ? [] : ["npm install"]),
    "npx bdk dev",
    `npx bdk run --message ${JSON.stringify(template.tryMessage)}`,
    "npx bdk eval",
  ];
  io.stdout.write(`\nNext:\n${lines.map((line) => `  ${line}`).join("\n")}\n`);
  io.stdout.write(`${dimmed(io, "No model key yet? Put BDK_MODEL=scripted in front of a command to use the offline model.")}\n`);
}

export const initCommand: Command = {
  name: "init",
  summary: "Create a project from a template and install its dependencies",
  usage: "bdk init <dir> [--template <id>] [--name N] [--force] [--no-install] [--list]",
  flags: [
    { name: "template", type: "string", description: "template id (see --list)", default: DEFAULT_TEMPLATE },
    { name: "name", type: "string", description: "package and agent name", default: "<dir name>" },
    { name: "force", type: "boolean", description: "write into a non-empty directory, overwriting the template's files" },
    { name: "install", type: "boolean", description: "run npm install in the new project (--no-install skips it)", default: true },
    { name: "list", type: "boolean", description: "list the templates, one line each" },
  ],
  async run(args, io) {
    const templates = listTemplates();
    if (booleanFlag(args, "list")) {
      printTemplates(io, templates);
      return 0;
    }
    const [target, ...extra] = args.positionals;
    if (!target) throw new UsageError("name the directory to create, e.g. bdk init my-bot");
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const templateId = stringFlag(args, "template") ?? DEFAULT_TEMPLATE;
    const template = templates.find((candidate) => candidate.id === templateId);
    if (!template) throw new UsageError(`unknown template "${templateId}" (templates: ${templates.map((candidate) => candidate.id).join(", ")})`);
    const dir = path.resolve(io.cwd, target);
    const name = stringFlag(args, "name") ?? packageNameFrom(path.basename(dir));
    if (!isValidPackageName(name)) {
      throw new UsageError(`--name "${name}" is not a valid package name (lowercase letters, digits, - . _ ~; e.g. ${packageNameFrom(name)})`);
    }

    const files = renderProject(template, { name, projectDir: dir });
    const problem =
      existsSync(dir) && !statSync(dir).isDirectory()
        ? `${dir} exists and is not a directory.`
        : booleanFlag(args, "force")
          ? undefined
          : refusal(dir, files);
    if (problem) {
      io.stderr.write(`bdk init: ${problem}\n`);
      return 1;
    }
    writeProject(dir, files);
    io.stdout.write(`Created ${name} in ${dir} from the ${template.id} template (${files.size} files).\n`);
    if (kitTypesMissing()) {
      io.stdout.write(`The kit's types are not built yet: run \`npm run build\` in ${KIT_DIR} so tsc finds @cursor/bdk.\n`);
    }

    const install = args.flags.install !== false;
    const installed = install && (await npmInstall(dir, io));
    printNextSteps(io, dir, template, installed);
    return install && !installed ? 1 : 0;
  },
};
