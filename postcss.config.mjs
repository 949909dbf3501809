// Tailwind v4 runs as a PostCSS plugin; its theme lives in app/globals.css (CSS-first config).
export default {
  plugins: { "@tailwindcss/postcss": {} },
};
