/**
 * The playground's design tokens, in one place (loaded by Tailwind 4 through
 * `@config` in app/globals.css). Components use these names, not palette
 * values: `bg-surface`, `text-fg-muted`, `border-line`, `text-accent-fg`,
 * `bg-tone-warning-soft`, `rounded-card`, `text-caption`.
 *
 * Every colour has a light and a dark value; they become CSS variables
 * (`--bdk-<name>`) switched by `prefers-color-scheme`, so a class needs no
 * `dark:` twin. Values name Tailwind's palette (`zinc-200`, `indigo-500/10`
 * for 10 % opacity) or are any CSS colour.
 */
import type { Config } from "tailwindcss";
import plugin from "tailwindcss/plugin";

type Mode = [light: string, dark: string];

/** Surfaces, text, lines and the accent. */
const base: Record<string, Mode> = {
  surface: ["white", "zinc-950"], // the page
  "surface-raised": ["white", "zinc-900"], // cards, inputs, menus
  "surface-muted": ["zinc-50", "zinc-900"], // side panels, code, hovered rows
  "surface-hover": ["zinc-100", "zinc-800"], // hovered controls
  line: ["zinc-200", "zinc-800"], // borders and dividers
  "line-strong": ["zinc-300", "zinc-700"], // control borders
  fg: ["zinc-900", "zinc-100"], // body text
  "fg-soft": ["zinc-700", "zinc-300"], // secondary text that is still read
  "fg-muted": ["zinc-500", "zinc-400"], // metadata, captions
  "fg-faint": ["zinc-400", "zinc-500"], // placeholders, disabled
  accent: ["indigo-600", "indigo-500"], // primary buttons, focus, selection
  "accent-fg": ["indigo-700", "indigo-300"], // accent text and links
  "accent-soft": ["indigo-50", "indigo-500/10"], // selected rows, active tabs
};

/**
 * Tones for badges, notices and status dots: `tone-<name>` (text), `-soft`
 * (fill), `-line` (ring or border), `-solid` (a dot or a strong fill).
 * Which status gets which tone is decided in components/ui/StatusBadge.tsx.
 */
const tones: Record<string, string> = {
  neutral: "zinc",
  accent: "indigo",
  success: "emerald",
  warning: "amber",
  danger: "red",
  info: "sky",
  special: "violet",
};

function toneColours(name: string, hue: string): Record<string, Mode> {
  const ink: Mode = name === "neutral" ? ["zinc-700", "zinc-300"] : name === "warning" ? [`${hue}-800`, `${hue}-300`] : [`${hue}-700`, `${hue}-300`];
  return {
    [`tone-${name}`]: ink,
    [`tone-${name}-soft`]: name === "neutral" ? ["zinc-100", "zinc-800"] : [`${hue}-50`, `${hue}-500/15`],
    [`tone-${name}-line`]: name === "neutral" ? ["zinc-200", "zinc-700"] : [`${hue}-200`, `${hue}-500/30`],
    [`tone-${name}-solid`]: name === "neutral" ? ["zinc-400", "zinc-500"] : [`${hue}-600`, `${hue}-500`],
  };
}

/** The trace chart's bars and legend, one colour per kind of row (`bg-trace-<kind>`), and its tick lines. */
const trace: Record<string, Mode> = {
  "trace-turn": ["indigo-500", "indigo-400"],
  "trace-step": ["sky-400", "sky-500"],
  "trace-tool": ["emerald-600", "emerald-500"],
  "trace-subagent": ["violet-600", "violet-400"],
  "trace-approval": ["amber-400", "amber-500"],
  "trace-cancelled": ["zinc-400", "zinc-600"],
  "trace-grid": ["zinc-100", "zinc-800/60"],
};

const palette: Record<string, Mode> = {
  ...base,
  ...trace,
  ...Object.assign({}, ...Object.entries(tones).map(([name, hue]) => toneColours(name, hue))),
};

/** `zinc-200` → Tailwind's variable; `indigo-500/10` → that colour at 10 %; anything else is CSS already. */
function cssColour(value: string): string {
  const [colour, alpha] = value.split("/");
  const css = /^[a-z]+-\d+$/.test(colour) ? `var(--color-${colour})` : colour === "white" || colour === "black" ? `var(--color-${colour})` : colour;
  return alpha ? `color-mix(in oklab, ${css} ${alpha}%, transparent)` : css;
}

const variables = (mode: 0 | 1) => Object.fromEntries(Object.entries(palette).map(([name, values]) => [`--bdk-${name}`, cssColour(values[mode])]));

export default {
  content: [],
  theme: {
    extend: {
      colors: Object.fromEntries(Object.keys(palette).map((name) => [name, `var(--bdk-${name})`])),
      // The type scale beyond Tailwind's: `caption` for badges, footers and dense metadata.
      fontSize: {
        caption: ["0.6875rem", { lineHeight: "1rem" }],
        "caption-sm": ["0.625rem", { lineHeight: "0.875rem" }],
        "body-sm": ["0.8125rem", { lineHeight: "1.25rem" }],
      },
      borderRadius: {
        badge: "0.25rem",
        control: "0.375rem",
        card: "0.5rem",
        panel: "0.75rem",
      },
    },
  },
  plugins: [
    plugin(({ addBase }) => {
      addBase({ ":root": variables(0) });
      addBase({ "@media (prefers-color-scheme: dark)": { ":root": variables(1) } });
    }),
  ],
} satisfies Config;
