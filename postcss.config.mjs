// Tailwind v4 runs as a PostCSS plugin; the design tokens live in tailwind.config.ts (loaded by `@config` in app/globals.css).
export default {
  plugins: { "@tailwindcss/postcss": {} },
};
