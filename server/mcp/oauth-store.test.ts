import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FileOAuthProvider, oauthFile, writeOAuthRecord } from "./oauth-store.ts";

const SERVER = "https://mcp.example.com/mcp";
const tokens = (access: string) => ({ access_token: access, token_type: "Bearer", refresh_token: `refresh-${access}` });

describe("FileOAuthProvider on the server", () => {
  it("writes a refreshed token through, unless bdk mcp oauth authorized another client meanwhile", async () => {
    const file = oauthFile(mkdtempSync(path.join(tmpdir(), "bdk-oauth-")), "linear");
    await writeOAuthRecord(file, { serverUrl: SERVER, clientInformation: { client_id: "client-a" }, tokens: tokens("a1") });
    const provider = await FileOAuthProvider.open(SERVER, { connection: "linear", file });

    await provider.saveTokens(tokens("a2"));
    expect(JSON.parse(readFileSync(file, "utf8")).tokens.access_token).toBe("a2");

    await writeOAuthRecord(file, { serverUrl: SERVER, clientInformation: { client_id: "client-b" }, tokens: tokens("b1") });
    await provider.saveTokens(tokens("a3"));
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ clientInformation: { client_id: "client-b" }, tokens: { access_token: "b1" } });
    expect(provider.tokens()?.access_token).toBe("b1");
  });

  it("does not offer a pending registration made for another redirect URL", async () => {
    const file = oauthFile(mkdtempSync(path.join(tmpdir(), "bdk-oauth-")), "linear");
    const abandoned = "http://127.0.0.1:53123/callback";
    await writeOAuthRecord(file, { serverUrl: SERVER, pending: { redirectUrl: abandoned, clientInformation: { client_id: "old-port" } } });
    const interactive = (redirectUrl: string) =>
      FileOAuthProvider.open(SERVER, { connection: "linear", file, interactive: { redirectUrl, state: "s", onAuthorizationUrl: () => {} } });

    expect((await interactive(abandoned)).clientInformation()?.client_id).toBe("old-port");
    const elsewhere = await interactive("http://localhost:3000/v1/dev/mcp/linear/callback");
    expect(elsewhere.clientInformation()).toBeUndefined();
    await elsewhere.saveCodeVerifier("verifier");
    expect(JSON.parse(readFileSync(file, "utf8")).pending).toEqual({
      redirectUrl: "http://localhost:3000/v1/dev/mcp/linear/callback",
      codeVerifier: "verifier",
    });
  });
});
