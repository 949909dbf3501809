/**
 * `cursorPlugin`: a Cursor plugin folder mounted as an extension. The folder
 * holds `skills/<name>/SKILL.md`, `agents/<name>.md` (subagents) and
 * `.mcp.json` (MCP servers), with an optional `.cursor-plugin/plugin.json`;
 * each becomes `<ns>__<name>`. The loader reads the folder.
 *
 * @example
 * // bot/extensions/notion.ts
 * export default cursorPlugin("plugins/notion");
 */
import { brand } from "./brand.ts";
import type { ExtensionMount } from "./extensions.ts";

export interface CursorPluginOptions {
  /** The plugin folder, relative to the project root (or absolute). */
  path: string;
}

export function cursorPlugin(options: string | CursorPluginOptions): ExtensionMount {
  const pluginDir = typeof options === "string" ? options : options?.path;
  const valid = typeof pluginDir === "string" && pluginDir.trim() !== "";
  return brand("extension-mount", {
    extension: "cursor-plugin",
    config: options,
    pluginDir: valid ? pluginDir : undefined,
    error: valid ? undefined : 'cursorPlugin needs the plugin folder, e.g. cursorPlugin("plugins/notion")',
    // Filled by the loader from the folder.
    contributions: { tools: {}, skills: {}, connections: {}, hooks: {}, channels: {}, schedules: {}, subagents: {} },
  });
}

export default cursorPlugin;
