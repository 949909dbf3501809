import { createJiti } from "jiti";
import * as tools from "./server/authoring/tools.ts";
import { z } from "zod";
const native = process.argv[2] === "native";
const t0 = performance.now();
const jiti = createJiti("/tmp/jx/proj/", { moduleCache: true, interopDefault: true, fsCache: "/tmp/jx/cache", virtualModules: { "@cursor/bdk/tools": tools }, nativeModules: native ? ["zod"] : [] });
const mod: any = await jiti.import("/tmp/jx/proj/bot/tools/a.ts");
console.log(performance.now() - t0, mod.default.description, mod.default.inputSchema instanceof z.ZodType, JSON.stringify(mod.default.inputSchema.toJSONSchema()), JSON.stringify(z.toJSONSchema(mod.default.inputSchema)));
