import { defineConfig } from "drizzle-kit";

/** `npm run db:generate:pg` writes a Postgres migration for changes to server/store/pg/schema.ts. */
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/store/pg/schema.ts",
  out: "./server/store/pg/migrations",
});
