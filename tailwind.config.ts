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
  "surface-card": ["white", "zinc-900/60"], // cards laid on the page: agent cards, tool calls
  "surface-card-hover": ["zinc-50", "zinc-800/50"], // a card's hovered header
  "surface-soft": ["zinc-50", "zinc-900/60"], // notes, hovered list rows
  "surface-menu-hover": ["zinc-50", "zinc-800"], // hovered menu items
  "surface-inset": ["zinc-100", "zinc-900"], // code-block header, docs code, hovered docs links
  "surface-code": ["zinc-50", "zinc-950"], // code blocks in Markdown
  "surface-well": ["zinc-50", "zinc-950/60"], // JSON blocks inside cards
  "surface-inverse": ["zinc-900", "white"], // the selected segment of a segmented control
  backdrop: ["zinc-950/50", "zinc-950/50"], // behind a modal
  "line-faint": ["zinc-100", "zinc-800/60"], // between rows of dense tables and lists
  "fg-strong": ["zinc-900", "white"], // hovered text of quiet controls
  "fg-subtle": ["zinc-600", "zinc-400"], // muted text in rendered docs
  "fg-dim": ["zinc-400", "zinc-400"], // icons, spinners, list markers, dim counters
  "fg-on-accent": ["white", "white"], // text on a solid fill: accent, tone -solid, trace bars, logo
  "fg-on-inverse": ["white", "zinc-900"], // text on surface-inverse
  "accent-solid": ["indigo-600", "indigo-600"], // link-buttons, a hovered link underline
  "accent-bright": ["indigo-500", "indigo-500"], // focus borders and rings, hovered icons
  "accent-line": ["indigo-400", "indigo-500"], // hovered card and chip borders
  "accent-selected-line": ["indigo-500", "indigo-400"], // a selected chip's border
  "accent-selected-fg": ["indigo-700", "indigo-200"], // a selected chip's text
  "accent-active": ["indigo-50", "indigo-500/20"], // the active menu item
  "accent-active-fg": ["indigo-900", "indigo-100"], // the active menu item's text
  "link-line": ["indigo-300", "indigo-500/40"], // link underlines in Markdown
  highlight: ["amber-200/70", "amber-400/30"], // matched text in search results
  "brand-from": ["indigo-500", "indigo-500"], // the logo's gradient
  "brand-to": ["violet-600", "violet-600"],
};

/**
 * Tone shades beyond the four every tone has, each used by one kind of element.
 * `mark-<name>` is an icon or mark that keeps one colour in both modes.
 */
const toneExtras: Record<string, Mode> = {
  "tone-danger-strong": ["red-900", "red-200"], // error text in a JSON block
  "tone-danger-faint": ["red-50/60", "red-500/5"], // a regressed row in a comparison
  "tone-danger-line-strong": ["red-300", "red-500/40"], // an errored tool call's frame
  "tone-warning-faint": ["amber-50", "amber-500/10"], // a flipped assertion's row
  "tone-warning-label": ["amber-700", "amber-400"], // the "flipped" label
  "tone-warning-raised": ["amber-100", "amber-500/20"], // code and hovered buttons on a warning banner
  "tone-warning-divider": ["amber-200", "amber-500/20"], // a warning banner's edge
  "tone-warning-edge": ["amber-400", "amber-400"], // a field that needs input: border and ring
  "tone-warning-placeholder": ["amber-600", "amber-400"], // that field's placeholder
  "tone-success-faint": ["emerald-50", "emerald-500/10"], // a success note
  "tone-info-bright": ["sky-600", "sky-400"], // "running" next to a tool call
  "mark-success": ["emerald-600", "emerald-600"], // a passed check
  "mark-warning": ["amber-500", "amber-500"], // a soft failure, a pending approval, a missing token
  "mark-warning-strong": ["amber-600", "amber-600"], // the "(soft)" label
  "mark-danger": ["red-600", "red-600"], // a failed check
  "mark-required": ["red-500", "red-500"], // the asterisk of a required field
  "mark-special": ["violet-500", "violet-500"], // a sub-agent's icon
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
  ...toneExtras,
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
