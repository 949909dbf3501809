/**
 * The UI uses the design tokens of tailwind.config.ts by name: no raw Tailwind
 * palette class (`text-zinc-400`, `bg-white`), no raw colour (`#09090b`,
 * `rgb(…)`), no `dark:` twin on a colour (a token switches by itself), and no
 * colour class naming a token that does not exist (Tailwind drops it silently).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import config from "../tailwind.config.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const SCANNED = ["components", "app"];

/**
 * Raw colours that must stay raw, each with its reason. Keys are `file: match`.
 * (app/icon.svg is an image file, not scanned: a favicon cannot read CSS variables.)
 */
const ALLOWED = new Set([
  // The browser's toolbar colour goes into <meta name="theme-color">, which takes a literal colour, not a CSS variable.
  "app/layout.tsx: #ffffff",
  "app/layout.tsx: #09090b",
]);

const PALETTE = "zinc|slate|gray|neutral|stone|red|orange|amber|yellow|lime|green|emerald|teal|cyan|sky|blue|indigo|violet|purple|fuchsia|pink|rose|white|black";
const COLOUR_UTILITY = "bg|text|border(?:-[trblxyse])?|ring|ring-offset|outline|divide|fill|stroke|from|via|to|decoration|placeholder|shadow|inset-shadow|drop-shadow|accent|caret";
const RAW_PALETTE_CLASS = new RegExp(`(?<![\\w-])(?:[\\w-]+:)*(?:${COLOUR_UTILITY})-(?:${PALETTE})(?:-\\d{2,3})?(?:/\\d+)?(?![\\w-])`, "g");
const RAW_COLOUR = /(?<![\w&/])#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4})\b|\b(?:rgba?|hsla?|oklch|oklab|hwb)\(/gi;
const DARK_COLOUR = new RegExp(`(?<![\\w-])dark:(?:[\\w-]+:)*(?:${COLOUR_UTILITY})-[a-z]`, "g");

const tokens = new Set(Object.keys(config.theme.extend.colors));
/** First segments of the token names: a colour class whose value starts with one of these must name a token. */
const tokenRoots = new Set([...tokens].map((name) => name.split("-")[0]));
const TOKEN_CLASS = new RegExp(`(?<![\\w-])(?:[\\w-]+:)*(?:${COLOUR_UTILITY})-([a-z][a-z0-9-]*)(?:/\\d+)?(?![\\w-])`, "g");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(tsx?|css)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

/** Every match of `pattern` in the scanned files, as `file: match`. */
function findings(pattern: RegExp): string[] {
  return SCANNED.flatMap(sourceFiles).flatMap((file) => [...readFileSync(path.join(ROOT, file), "utf8").matchAll(pattern)].map((match) => `${file}: ${match[0]}`));
}

describe("design tokens", () => {
  it("the scan reaches the components", () => {
    expect(SCANNED.flatMap(sourceFiles)).toEqual(expect.arrayContaining(["components/ui/Button.tsx", "app/docs/shell.tsx", "app/docs/docs.css"]));
  });

  it("components use no raw Tailwind palette class", () => {
    expect(findings(RAW_PALETTE_CLASS)).toEqual([]);
  });

  it("components use no raw colour value outside the allow-list", () => {
    expect(findings(RAW_COLOUR).filter((finding) => !ALLOWED.has(finding))).toEqual([]);
  });

  it("no colour has a dark: twin (each token carries its dark value)", () => {
    expect(findings(DARK_COLOUR)).toEqual([]);
  });

  it("every colour class that names a token names one that exists", () => {
    const unknown = SCANNED.flatMap(sourceFiles).flatMap((file) =>
      [...readFileSync(path.join(ROOT, file), "utf8").matchAll(TOKEN_CLASS)]
        .filter(([, value]) => tokenRoots.has(value.split("-")[0]) && !tokens.has(value))
        .map((match) => `${file}: ${match[0]}`),
    );
    expect(unknown).toEqual([]);
  });

  it("the patterns catch what they are meant to", () => {
    for (const raw of ["text-white", "hover:bg-zinc-50", "dark:border-red-500/40", "accent-indigo-600", "from-indigo-500"]) expect(raw.match(RAW_PALETTE_CLASS)).toEqual([raw]);
    for (const named of ["text-fg-on-accent", "bg-tone-neutral-soft", "border-line"]) expect(named.match(RAW_PALETTE_CLASS)).toBeNull();
    expect('color: "#09090b"'.match(RAW_COLOUR)).toEqual(["#09090b"]);
    expect('href="#tools"'.match(RAW_COLOUR)).toBeNull();
    expect([..."bg-surface-raisd".matchAll(TOKEN_CLASS)][0][1]).toBe("surface-raisd");
  });
});
