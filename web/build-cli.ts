// `npm run build` (and `npm pack`, through prepack): compiles the kit to dist/
// and builds the web app when its sources changed since the last build
// (`--force` rebuilds it anyway).
import { compileKit } from "./compile.ts";
import { buildWebApp, isBuilt } from "./build.ts";

await compileKit();
console.log("Kit compiled to dist/.");
if (process.argv.includes("--force") || !isBuilt()) {
  await buildWebApp();
  console.log("Web app built.");
} else {
  console.log("Web app is current (its sources are unchanged since the last build).");
}
