/** @type {import('next').NextConfig} */
const nextConfig = {
  // Responses are NDJSON streams and small JSON: compression would buffer the streams and cost CPU per chunk.
  compress: false,
  // The engine runs in the process that boots Next; these must never be bundled.
  serverExternalPackages: ["jiti", "zod", "better-sqlite3", "drizzle-orm", "ai"],
  poweredByHeader: false,
  reactStrictMode: true,
  devIndicators: false,
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
