import { describe, expect, it } from "vitest";
import { prompt } from "./prompt.ts";

describe("prompt", () => {
  it("removes the common indent, the newline after the opening backtick and the one before the closing backtick", () => {
    const text = prompt`
      It is outside business hours (Mon-Fri 9am-5pm ET).
      Use request_author_approval, or pass approval=human_request.
    `;
    expect(text).toBe("It is outside business hours (Mon-Fri 9am-5pm ET).\nUse request_author_approval, or pass approval=human_request.");
  });

  it("keeps relative indentation so nested lists keep their shape", () => {
    const text = prompt`
      Steps:
        - inspect
          - read the diff
        - review
    `;
    expect(text).toBe("Steps:\n  - inspect\n    - read the diff\n  - review");
  });

  it("keeps blank lines, including blank lines that contain only whitespace", () => {
    const text = prompt`
      First paragraph.

      Second paragraph.
 \t
      Third.
    `;
    expect(text).toBe("First paragraph.\n\nSecond paragraph.\n\nThird.");
  });

  it("handles tab indentation", () => {
    const text = prompt`
\t\tTabbed line.
\t\t\tNested with a tab.
\t`;
    expect(text).toBe("Tabbed line.\n\tNested with a tab.");
  });

  it("removes only the prefix common to every line when tabs and spaces are mixed", () => {
    const text = prompt`
\t  one
\t    two
\t`;
    expect(text).toBe("one\n  two");
  });

  it("works without a leading newline (the first line counts toward the common indent)", () => {
    expect(prompt`Hello
  world`).toBe("Hello\n  world");
    expect(prompt`  Hello
  world`).toBe("Hello\nworld");
  });

  it("returns a single line unchanged, and trims nothing else", () => {
    expect(prompt`Just one line.`).toBe("Just one line.");
    expect(prompt``).toBe("");
    expect(prompt`
    `).toBe("");
  });

  it("interpolates single-line values in place", () => {
    const pr = { url: "https://github.com/acme/checkout/pull/42" };
    const author = "octocat";
    const text = prompt`
      Merged PR detected: ${pr.url} by ${author}.
      Call plan_deploy.
    `;
    expect(text).toBe("Merged PR detected: https://github.com/acme/checkout/pull/42 by octocat.\nCall plan_deploy.");
  });

  it("inserts multi-line values after dedenting, so their lines stay exactly as given", () => {
    const services = "- checkout\n- payments\n  - ledger";
    const text = prompt`
      Services:
      ${services}
      Done.
    `;
    expect(text).toBe("Services:\n- checkout\n- payments\n  - ledger\nDone.");
  });

  it("computes the indent from literal text only, even when a value starts a line", () => {
    const text = prompt`
        ${"value"} at deeper indent
      base line
    `;
    expect(text).toBe(`  value at deeper indent\nbase line`);
  });

  it("applies escapes like a normal template and stringifies values", () => {
    expect(prompt`
      a\tb ${42} ${null} ${["x", "y"]}
    `).toBe("a\tb 42 null x,y");
  });

  it("keeps a trailing newline that is not followed only by indentation", () => {
    expect(prompt`
      line

    `).toBe("line\n");
  });

  it("prompt.lines returns one entry per line with the same rules", () => {
    const lines = prompt.lines`
      Merged PR detected: ${"https://x/pull/1"} by ${"octocat"}.

      Call plan_deploy, then follow its nextStep.
    `;
    expect(lines).toEqual(["Merged PR detected: https://x/pull/1 by octocat.", "", "Call plan_deploy, then follow its nextStep."]);
    expect(prompt.lines`one`).toEqual(["one"]);
  });
});
