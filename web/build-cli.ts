// `npm run build`: builds the web app and records the sources it was built from.
import { buildWebApp } from "./build.ts";

await buildWebApp();
console.log("Web app built.");
