import { defineConfig } from "drizzle-kit";

/** `npm run db:generate` writes a migration for changes to server/store/schema.ts. */
export default defineConfig({
  dialect: "sqlite",
  schema: "./server/store/schema.ts",
  out: "./server/store/migrations",
});
