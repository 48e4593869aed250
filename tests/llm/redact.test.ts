/**
 * Redaction of text that leaves the model layer: every credential form a server, a proxy or an
 * SDK puts in an error is replaced by `***`; ordinary proposal prose is left alone; long texts
 * are cut without showing part of a secret; causes of model errors are kept only when clean.
 */
import { describe, expect, it } from "vitest";
import { ModelOptionsError, ModelUnavailableError } from "../../src/llm/errors.js";
import { parseServerAddress } from "../../src/llm/serverList.js";
import { boundedText, redactSecretText, safeCause } from "../../src/redact.js";

describe("redactSecretText", () => {
  it.each([
    ["Authorization: Bearer abc.def-ghi_123", "Authorization: ***"],
    ["authorization: bearer short", "authorization: ***"],
    ['{"Authorization":"Basic dXNlcjpwYXNz"}', '{"Authorization":"***"}'],
    ["Proxy-Authorization: Basic cHJveHk6cHc=", "Proxy-Authorization: ***"],
    ["sent Bearer eyJhbGciOi.eyJzdWIi.c2ln as token", "sent *** as token"],
    ["header was Basic ZXZhbDpodW50ZXIy here", "header was Basic *** here"],
    ["x-api-key: k3y-value-0001, next", "x-api-key: ***, next"],
    ["X-Api-Key=abcdef", "X-Api-Key=***"],
    ["GET /v1?api_key=plain-secret&page=2", "GET /v1?api_key=***&page=2"],
    ['{"apiKey": "value-1234"}', '{"apiKey": "***"}'],
    ["client_secret=s3cr3t;", "client_secret=***;"],
    ["password: hunter2", "password: ***"],
    ["https://h/x?token=abc123&user=jo", "https://h/x?token=***&user=jo"],
    ["key sk-proj-Zq8mXv2Lw9Tr4Yp1 leaked", "key *** leaked"],
    ["ghp_abcdefghijklmnopqrstuvwxyz0123", "***"],
    ["AKIAABCDEFGHIJKLMNOP", "***"],
    ["AIzaSyA-1234567890abcdefghijklmnopqrstu", "***"],
    ["gsk_abcdefghijklmnopqrstuvwx", "***"],
    ["xoxb-1234567890-abcdef", "***"],
    ["http://user:p@ss@host:11434/api", "http://***@host:11434/api"],
    ["fetch https://tok3n@gpu-box/ failed", "fetch https://***@gpu-box/ failed"],
    // A password written without percent-encoding: `#`, `?` and `/` end no secret.
    ["postgres://app:p#ss?w0rd@db:5432/x failed", "postgres://***@db:5432/x failed"],
    ["http://evaluser:pa/Secr3t@127.0.0.1:9", "http://***@127.0.0.1:9"],
    ["postgres://db/x?sslpassword=Secr3t", "postgres://db/x?sslpassword=***"],
    ["DB_PASSWORD=hunter2 was refused", "DB_PASSWORD=*** was refused"],
  ])("%s", (text, redacted) => {
    expect(redactSecretText(text)).toBe(redacted);
  });

  it.each([
    "Basic research funding supports early-stage ideas.",
    "The token economy of the platform rewards contributors.",
    "Our password policy requires rotation every 90 days.",
    "We plan API key management with a vault.",
    "See https://example.org/plan?page=2#budget for the budget.",
    "See https://example.org/plan?page=2#budget or https://example.org/@team for more.",
    "pool http://gpu1:8000/v1,openai-compatible:m@http://gpu3:8000/v1 failed",
    "The bearer of the certificate must sign.",
    "Score: 0.8 — the evaluation covers the aims.",
  ])("leaves prose alone: %s", (text) => {
    expect(redactSecretText(text)).toBe(text);
  });

  it("is idempotent", () => {
    const text =
      "Authorization: Bearer abcdefghij; url http://u:p@h/ and sk-abcdefghijklmnop1234 Basic dXNlcjpwYXNz";
    const once = redactSecretText(text);
    expect(redactSecretText(once)).toBe(once);
  });

  it("reads inputs built to make a pattern go back over itself, and still finds the secret after them", () => {
    const secret = "sk-live-Q1w2E3r4T5y6U7i8";
    const inputs = [
      `${"a.".repeat(200_000)}x://`,
      `${"http://".repeat(50_000)}`,
      `${"Bearer ".repeat(50_000)}`,
      `${"Basic ".repeat(50_000)}`,
      `${"sk-".repeat(100_000)}`,
      `${"authorization:".repeat(30_000)}`,
      `${"eyJ-".repeat(100_000)}`,
    ];
    for (const input of inputs) {
      const redacted = redactSecretText(`${input} ${secret}`);
      expect(redacted).not.toContain(secret);
    }
  });
});

describe("boundedText and boundedText", () => {
  it("quote at most 500 characters of a body, naming how many were left out", () => {
    const quoted = boundedText("<p>".padEnd(20_000, "q"));
    expect(quoted).toMatch(/^<p>q+… \(19,500 more characters not shown\)$/);
    expect(quoted.length).toBeLessThan(550);
    expect(boundedText("short body")).toBe("short body");
  });

  it("never show part of a secret cut by the window", () => {
    // Every offset of the secret against the window's end.
    for (let pad = 0; pad < 40; pad++) {
      const text = `${"word ".repeat(400)}${"x".repeat(pad)} Authorization: Bearer Zq8mXv2Lw9Tr4Yp1Ks7Nd3Hb ${"tail ".repeat(2_000)}`;
      const shown = boundedText(text, 2_100);
      expect(shown).not.toMatch(/Zq8m|Bearer Z/);
    }
    for (let pad = 0; pad < 40; pad++) {
      const text = `${" ".repeat(1_990 + pad)}sk-proj-Zq8mXv2Lw9Tr4Yp1${"y".repeat(5_000)}`;
      expect(boundedText(text, 500)).not.toContain("Zq8m");
    }
  });

  it("redact what they show", () => {
    expect(boundedText("denied for Bearer abcdefghijk", 100)).toBe("denied for ***");
  });
});

describe("the cause kept on a model error", () => {
  const where = { provider: "ollama", model: "m", baseUrl: "http://127.0.0.1:11434" };

  it("is the original error when it holds no secret", () => {
    const original = new Error("connect ECONNREFUSED 127.0.0.1:11434");
    expect(safeCause(original)).toBe(original);
    expect(
      new ModelUnavailableError("connection-refused", "x", where, { cause: original }).cause,
    ).toBe(original);
  });

  it("is a redacted copy when the error, its fields or its own causes hold one", () => {
    const deep = Object.assign(new Error("socket closed"), {
      cause: new Error("proxy said: Authorization: Bearer abcdefghijklmn"),
    });
    const sdk = Object.assign(new Error("HTTP 401"), {
      status: 401,
      code: "unauthorized",
      error: { message: "bad key sk-abcdefghijklmnop1234" },
      cause: deep,
    });
    const kept = safeCause(sdk) as Error & Record<string, unknown>;
    expect(kept).not.toBe(sdk);
    expect(kept.message).toBe("HTTP 401");
    expect(kept.status).toBe(401);
    expect(kept.code).toBe("unauthorized");
    const everything = JSON.stringify(kept, ["message", "stack", "cause", "error", "code"]);
    expect(everything).not.toContain("abcdefghijklmn");
    expect(everything).not.toContain("sk-abcdefghijklmnop1234");
    expect(String((kept.cause as Error).cause)).toContain("Authorization: ***");
  });

  it("is cut to size when its message is huge", () => {
    const kept = safeCause(new Error(`body: ${"z".repeat(1_000_000)}`)) as Error;
    expect(kept.message.length).toBeLessThan(2_100);
    expect(kept.stack?.length ?? 0).toBeLessThan(5_000);
  });

  it("on a model error: its message too is redacted and bounded", () => {
    const error = new ModelUnavailableError(
      "server-error",
      `upstream said Authorization: Basic dXNlcjpwYXNz ${"!".repeat(100_000)}`,
      where,
    );
    expect(error.message).toContain("Authorization: ***");
    expect(error.message).not.toContain("dXNlcjpwYXNz");
    expect(error.message.length).toBeLessThan(2_100);
  });
});

describe("a model server URL", () => {
  it("keeps its credentials out of the URL, in a Basic header that prints as ***", () => {
    const server = parseServerAddress(
      "http://judge:p%40ss%3Aw0rd@GPU-Box:11434/ollama/",
      "baseUrl",
    );
    expect(server.url).toBe("http://gpu-box:11434/ollama");
    expect(server.shown).toBe("http://***@gpu-box:11434/ollama");
    const header = `Basic ${Buffer.from("judge:p@ss:w0rd").toString("base64")}`;
    expect(server.authorization?.headerValue()).toBe(header);
    expect(JSON.stringify(server)).not.toContain(header.slice(6));
    expect(String(server.authorization)).toBe("***");
  });

  it("without credentials has no header and shows as is", () => {
    const server = parseServerAddress("https://ollama.example.org", "baseUrl");
    expect(server).toEqual({
      url: "https://ollama.example.org",
      key: "https://ollama.example.org:443",
      shown: "https://ollama.example.org",
      authorization: undefined,
    });
  });

  it.each(["ftp://host/", "not a url", "http://", `http://h/${"x".repeat(3_000)}`])(
    "%s is refused, naming the setting, without its credentials",
    (url) => {
      expect(() => parseServerAddress(url, "OLLAMA_BASE_URL")).toThrow(ModelOptionsError);
      expect(() => parseServerAddress(url, "OLLAMA_BASE_URL")).toThrow(/OLLAMA_BASE_URL/);
    },
  );

  it("refused with credentials in it, does not print them", () => {
    const error = (() => {
      try {
        parseServerAddress("gopher://admin:topsecret@host", "OLLAMA_BASE_URL");
      } catch (caught) {
        return caught as Error;
      }
      throw new Error("not refused");
    })();
    expect(error.message).toContain("gopher://***@host");
    expect(error.message).not.toContain("topsecret");
  });
});
