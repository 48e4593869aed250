import { describe, expect, it } from "vitest";
import { CatalogError } from "../../src/criteria/errors.js";
import { EvalgateError } from "../../src/errors.js";
import { describeError } from "../../src/service/errors.js";

describe("describeError", () => {
  it("answers a desk error with its own status, code and message", () => {
    const described = describeError(
      new EvalgateError("ACTION_NOT_OFFERED", "retry is not offered"),
    );
    expect(described.status).toBe(422);
    expect(described.body.error).toEqual({
      code: "ACTION_NOT_OFFERED",
      message: "retry is not offered [ACTION_NOT_OFFERED]",
    });
    expect(described.unexpected).toBe(false);
  });

  it("ends every message with its code, the generic 500's too, and never twice", () => {
    const refused = describeError(new EvalgateError("THREAD_NOT_FOUND", "no thread t1"));
    expect(refused.body.error.message).toBe("no thread t1 [THREAD_NOT_FOUND]");
    const ended = describeError(new EvalgateError("FORBIDDEN", "ana may not assign [FORBIDDEN]"));
    expect(ended.body.error.message).toBe("ana may not assign [FORBIDDEN]");
    const blank = describeError(new EvalgateError("INVALID_INPUT", ""));
    expect(blank.body.error.message).toBe("[INVALID_INPUT]");
    const internal = describeError(new Error("boom"));
    expect(internal.body.error).toEqual({
      code: "INTERNAL",
      message: "the service failed to answer; see its log [INTERNAL]",
    });
  });

  it("hides the message of an evalgate error whose code the service does not answer for", () => {
    const internal = new CatalogError("unexpected token", {
      source: "/srv/secret-folder/criteria.json",
      line: 3,
    });
    const described = describeError(internal);
    expect(described.status).toBe(500);
    expect(described.body.error.code).toBe("INTERNAL");
    expect(JSON.stringify(described.body)).not.toContain("secret-folder");
    expect(described.unexpected).toBe(true);
  });

  it("hides the message of an error that is not an evalgate error", () => {
    const described = describeError(new Error("connect ECONNREFUSED postgres://u:pw@db/x"));
    expect(described.status).toBe(500);
    expect(JSON.stringify(described.body)).not.toContain("pw@");
  });
});
