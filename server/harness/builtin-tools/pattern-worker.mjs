// Runs model-supplied patterns (grep's regular expression, glob matchers) off
// the main thread: a pattern that backtracks for ever costs its own call, which
// the main thread ends by terminating this worker (pattern-matcher.ts).
// Plain JavaScript: workers start without the kit's TypeScript loader.
import { parentPort } from "node:worker_threads";
import picomatch from "picomatch";

/** `/`-separated relative path → whether the glob matches; no pattern matches everything. */
function compileGlob(glob) {
  if (!glob) return () => true;
  // dot: "*" matches dotfiles too, like the rest of the file tools; basename: a pattern without "/" matches the name at any depth.
  // picomatch 4 reads a class "[!ab]" as "[ab]"; "[^ab]" is the same class in the syntax it gets right.
  const pattern = glob.pattern.replace(/(?<!\\)\[!/g, "[^");
  return picomatch(pattern, { dot: true, basename: glob.basename, strictBrackets: true });
}

function compileRegex(regex) {
  return regex ? new RegExp(regex.source, regex.flags) : undefined;
}

let matchesGlob;
let regex;

parentPort.on("message", (request) => {
  if (request.compile) {
    try {
      matchesGlob = compileGlob(request.compile.glob);
      regex = compileRegex(request.compile.regex);
      parentPort.postMessage({ id: request.id, ready: true });
    } catch (error) {
      parentPort.postMessage({ id: request.id, ready: false, message: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  if (request.paths) {
    parentPort.postMessage({ id: request.id, matched: request.paths.map((relative) => matchesGlob(relative)) });
    return;
  }
  const matches = [];
  for (const file of request.files) {
    const lines = file.text.split("\n");
    for (let index = 0; index < lines.length && matches.length < request.limit; index++) {
      if (regex.test(lines[index])) matches.push({ path: file.path, line: index + 1, text: lines[index].slice(0, request.maxLineChars) });
    }
  }
  parentPort.postMessage({ id: request.id, matches });
});
